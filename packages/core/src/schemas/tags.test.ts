import { describe, expect, it } from "vitest";
import { moveTags, NO_TAG_COLUMN, tagIdsSchema, tagInputSchema } from "./tags.js";

describe("moveTags (the board's drop rule)", () => {
  it("replaces the source column's tag with the target's and keeps the others", () => {
    expect(moveTags([1, 2, 3], 2, 4)).toEqual([1, 3, 4]);
  });
  it("does not duplicate a target tag the ticket already had", () => {
    expect(moveTags([1, 2], 1, 2)).toEqual([2]);
  });
  it("gives the target tag alone to a card taken from 'no tag'", () => {
    expect(moveTags([], NO_TAG_COLUMN, 5)).toEqual([5]);
  });
  it("clears every tag when dropped on 'no tag'", () => {
    expect(moveTags([1, 2], 1, NO_TAG_COLUMN)).toEqual([]);
  });
  it("changes nothing when dropped on its own column", () => {
    expect(moveTags([1, 2], 2, 2)).toEqual([1, 2]);
  });
});

describe("tag schemas", () => {
  it("accepts #rgb and #rrggbb colours, lowercased, and refuses the rest", () => {
    expect(tagInputSchema.parse({ name: " Vip ", color: "#ABCDEF" })).toEqual({ name: "Vip", color: "#abcdef" });
    expect(tagInputSchema.safeParse({ name: "Vip", color: "#abc" }).success).toBe(true);
    for (const color of ["abc", "#abcd", "#ggg", "rgb(0,0,0)"]) {
      expect(tagInputSchema.safeParse({ name: "Vip", color }).success, color).toBe(false);
    }
  });
  it("collapses duplicate tag ids", () => {
    expect(tagIdsSchema.parse([3, 1, 3])).toEqual([3, 1]);
  });
});
