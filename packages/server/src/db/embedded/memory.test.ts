import { describe, expect, it } from "vitest";
import { memoryBudget, memorySettings } from "./memory.js";

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

describe("the embedded PostgreSQL's memory", () => {
  it("gives shared buffers a quarter of the memory, between the stock 128 MB and 2 GB", () => {
    // A small machine keeps the stock figures; a large one stops at the caps.
    const cases: [bytes: number, buffers: string, cache: string, maintenance: string][] = [
      [24 * GiB, "2048MB", "12288MB", "512MB"],
      [4 * GiB, "1024MB", "2048MB", "128MB"],
      [512 * MiB, "128MB", "512MB", "64MB"],
      [256 * GiB, "2048MB", "65536MB", "512MB"],
    ];
    for (const [bytes, buffers, cache, maintenance] of cases) {
      expect(memorySettings(bytes)).toEqual({
        shared_buffers: buffers,
        effective_cache_size: cache,
        maintenance_work_mem: maintenance,
      });
    }
  });

  it("counts a container's limit when it is lower than the machine's memory", () => {
    const files = (contents: Record<string, string>) => (path: string) => {
      if (path in contents) return contents[path]!;
      throw Object.assign(new Error("ENOENT"), { code: "ENOENT" });
    };
    // No cgroup files (macOS, Windows): the machine's.
    expect(memoryBudget(24 * GiB, files({}))).toBe(24 * GiB);
    // cgroup v2: a limit, or none.
    expect(memoryBudget(24 * GiB, files({ "/sys/fs/cgroup/memory.max": `${2 * GiB}\n` }))).toBe(2 * GiB);
    expect(memoryBudget(24 * GiB, files({ "/sys/fs/cgroup/memory.max": "max\n" }))).toBe(24 * GiB);
    // cgroup v1: unlimited is a number near 2^63.
    expect(memoryBudget(24 * GiB, files({ "/sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n" }))).toBe(
      24 * GiB,
    );
    expect(memoryBudget(24 * GiB, files({ "/sys/fs/cgroup/memory/memory.limit_in_bytes": `${3 * GiB}\n` }))).toBe(3 * GiB);
  });
});
