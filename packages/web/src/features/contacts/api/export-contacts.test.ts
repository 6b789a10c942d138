import { describe, expect, it } from "vitest";
import { contactsToCsv } from "./export-contacts";

describe("contacts CSV (spec §2)", () => {
  it("has the name;number;email columns, one contact per line", () => {
    expect(
      contactsToCsv([
        { name: "Maria", number: "5511999990000", email: "maria@example.com" },
        { name: "João", number: "5511988880000", email: "" },
      ]),
    ).toBe("name;number;email\nMaria;5511999990000;maria@example.com\nJoão;5511988880000;");
  });

  it("quotes cells that contain the separator, quotes or line breaks", () => {
    expect(contactsToCsv([{ name: 'Ana; "Tia"', number: "123", email: "a\nb" }])).toBe(
      'name;number;email\n"Ana; ""Tia""";123;"a\nb"',
    );
  });
});
