import { describe, expect, it } from "vitest";
import { confirmsContact } from "./contact-data.js";

describe("confirmsContact", () => {
  const contact = { name: "Maria da Silva", number: "5511987654321" };
  it("accepts the name in any case and the number as people type it", () => {
    expect(confirmsContact(contact, "  maria DA silva ")).toBe(true);
    expect(confirmsContact(contact, "5511987654321")).toBe(true);
    expect(confirmsContact(contact, "+55 (11) 98765-4321")).toBe(true);
  });
  it("refuses anything else", () => {
    expect(confirmsContact(contact, "Maria")).toBe(false);
    expect(confirmsContact(contact, "11987654321")).toBe(false);
    expect(confirmsContact(contact, "")).toBe(false);
    expect(confirmsContact({ name: "", number: "" }, "  ")).toBe(false);
  });
});
