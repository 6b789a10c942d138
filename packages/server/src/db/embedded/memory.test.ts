import { describe, expect, it } from "vitest";
import { memoryBudget, memorySettings } from "./memory.js";

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

describe("the embedded PostgreSQL's memory", () => {
  it("gives shared buffers a quarter of the memory, between the stock 128 MB and 2 GB", () => {
    expect(memorySettings(24 * GiB)).toEqual({
      shared_buffers: "2048MB",
      effective_cache_size: "12288MB",
      maintenance_work_mem: "512MB",
    });
    expect(memorySettings(4 * GiB)).toEqual({
      shared_buffers: "1024MB",
      effective_cache_size: "2048MB",
      maintenance_work_mem: "128MB",
    });
    // A small machine keeps the stock figures; a large one stops at the caps.
    expect(memorySettings(512 * MiB)).toEqual({
      shared_buffers: "128MB",
      effective_cache_size: "512MB",
      maintenance_work_mem: "64MB",
    });
    expect(memorySettings(256 * GiB)).toEqual({
      shared_buffers: "2048MB",
      effective_cache_size: "65536MB",
      maintenance_work_mem: "512MB",
    });
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
