import { describe, expect, it } from "vitest";
import { createKeyedSerial } from "./keyed-serial.js";

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("keyed serial work", () => {
  it("runs one key's work in order, other keys beside it, and goes on after a failure", async () => {
    const serial = createKeyedSerial<number>();
    const seen: string[] = [];
    const slow = serial.run(1, async () => {
      await later(30);
      seen.push("1a");
    });
    const failing = serial.run(1, async () => {
      seen.push("1b");
      throw new Error("boom");
    });
    const after = serial.run(1, async () => {
      seen.push("1c");
      return "done";
    });
    const other = serial.run(2, async () => {
      seen.push("2a");
    });
    await other;
    expect(seen).toEqual(["2a"]);
    await expect(failing).rejects.toThrow("boom");
    await expect(after).resolves.toBe("done");
    await slow;
    expect(seen).toEqual(["2a", "1a", "1b", "1c"]);
    await serial.settled(1);
    await serial.idle();
  });
});
