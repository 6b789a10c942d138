import { describe, expect, it } from "vitest";
import { parseRating } from "./parse-rating.js";

describe("parseRating", () => {
  it.each([
    ["5", 5],
    [" 4 ", 4],
    ["5!", 5],
    ["3.", 3],
    ["1", 1],
    ["(2)", 2],
    ["5 👍", 5],
    ["4\n", 4],
    ["5\uFE0F\u20E3", 5],
    ["1\uFE0F\u20E3", 1],
    ["⭐⭐⭐⭐", 4],
    ["⭐", 1],
    ["★★★", 3],
    ["🌟🌟🌟🌟🌟", 5],
    ["５", 5],
  ])("reads %j as %i", (body, rating) => {
    expect(parseRating(body)).toBe(rating);
  });

  it.each(["", "   ", "0", "6", "10", "45", "4.5", "5/5", "nota 5", "5 estrelas", "obrigado", "ok", "⭐⭐⭐⭐⭐⭐", "👍", "?"])(
    "does not read %j as a rating",
    (body) => {
      expect(parseRating(body)).toBeUndefined();
    },
  );
});
