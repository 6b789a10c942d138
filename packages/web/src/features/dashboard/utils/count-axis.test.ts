import { describe, expect, it } from "vitest";
import { countTicks } from "./count-axis";

describe("the count axis", () => {
  it("ends at the largest count when it is small: a count of 1 fills the chart", () => {
    expect(countTicks([0, 1, 0])).toEqual([0, 1]);
    expect(countTicks([3, 2])).toEqual([0, 1, 2, 3]);
    expect(countTicks([5])).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("has whole, even steps of 1, 2, 5, 10… and at most five intervals", () => {
    expect(countTicks([7])).toEqual([0, 2, 4, 6, 8]);
    expect(countTicks([10])).toEqual([0, 2, 4, 6, 8, 10]);
    expect(countTicks([12])).toEqual([0, 5, 10, 15]);
    expect(countTicks([49])).toEqual([0, 10, 20, 30, 40, 50]);
    expect(countTicks([1234])).toEqual([0, 500, 1000, 1500]);
    for (let max = 1; max <= 2000; max++) {
      const ticks = countTicks([max]);
      const step = ticks[1];
      expect(ticks.every((tick, i) => Number.isInteger(tick) && tick === i * step)).toBe(true);
      expect(ticks.length - 1).toBeLessThanOrEqual(5);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
      expect(ticks.at(-1)! - step).toBeLessThan(max);
    }
  });

  it("shows 0 to 1 when there is nothing to count", () => {
    expect(countTicks([])).toEqual([0, 1]);
    expect(countTicks([0, 0])).toEqual([0, 1]);
  });
});
