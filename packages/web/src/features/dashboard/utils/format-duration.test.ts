import { describe, expect, it } from "vitest";
import { formatDuration } from "./format-duration";

describe("formatDuration", () => {
  it("reads as people say it", () => {
    expect(formatDuration(null)).toBe("—");
    expect(formatDuration(40_000)).toBe("40 s");
    expect(formatDuration(4 * 60_000)).toBe("4 min");
    expect(formatDuration(80 * 60_000)).toBe("1 h 20 min");
    expect(formatDuration(2 * 3_600_000)).toBe("2 h");
    expect(formatDuration(51 * 3_600_000)).toBe("2 d 3 h");
    expect(formatDuration(48 * 3_600_000)).toBe("2 d");
  });
});
