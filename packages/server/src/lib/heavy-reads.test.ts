import { describe, expect, it } from "vitest";
import { AppError } from "./app-error.js";
import { createHeavyReadGate, MAX_WAITING } from "./heavy-reads.js";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("the heavy-read gate", () => {
  it("runs one read per user at a time, in order; other users run beside it", async () => {
    const gate = createHeavyReadGate();
    const log: string[] = [];
    const first = deferred();
    const a1 = gate.run(1, async () => {
      log.push("a1 start");
      await first.promise;
      log.push("a1 end");
      return "a1";
    });
    const a2 = gate.run(1, async () => {
      log.push("a2 start");
      return "a2";
    });
    const b1 = gate.run(2, async () => {
      log.push("b1 start");
      return "b1";
    });
    expect(await b1).toBe("b1");
    expect(log).toEqual(["a1 start", "b1 start"]);
    first.resolve();
    expect(await Promise.all([a1, a2])).toEqual(["a1", "a2"]);
    expect(log).toEqual(["a1 start", "b1 start", "a1 end", "a2 start"]);
    expect(gate.running()).toBe(0);
  });

  it("answers ERR_HEAVY_READ_BUSY past the waiting line, and drops a waiting read whose client left", async () => {
    const gate = createHeavyReadGate();
    const hold = deferred();
    const ran: number[] = [];
    const running = gate.run(1, () => hold.promise);
    const waiting = Array.from({ length: MAX_WAITING }, (_, i) =>
      gate.run(
        1,
        async () => {
          ran.push(i);
        },
        () => i === 0,
      ),
    );
    const refused = await gate.run(1, async () => {}).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("ERR_HEAVY_READ_BUSY");
    expect((refused as AppError).status).toBe(429);
    hold.resolve();
    await running;
    const results = await Promise.allSettled(waiting);
    expect(results[0]).toMatchObject({ status: "rejected", reason: { code: "ERR_HEAVY_READ_BUSY" } });
    expect(ran).toEqual([1, 2, 3]);
    // A failure never blocks the next one.
    await expect(gate.run(1, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await gate.run(1, async () => "after")).toBe("after");
  });
});
