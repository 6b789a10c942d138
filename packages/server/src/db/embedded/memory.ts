import { readFileSync } from "node:fs";
import { totalmem } from "node:os";

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/**
 * Issue 24: the embedded PostgreSQL's memory, sized to the machine it shares with Zapdesk.
 *
 * initdb's stock `shared_buffers` is 128 MB whatever the machine. At the 500k messages the product is
 * built for, the messages table alone is 227 MB (the database about 400 MB), so a search that collects
 * its words' messages (one heap page a message) copies most pages in from the kernel's cache, one
 * system call each: measured at scale 1, collecting a word in 11% of the messages took 203–218 ms of
 * the database's CPU with 128 MB and 67–72 ms with 512 MB or 1 GB (docs/benchmarks.md). A server
 * install is tuned by its administrator (docs/deploy.md); the embedded one, which most teams run, is
 * tuned here, by the common rules for a database that shares its machine with the application:
 *
 * - `shared_buffers`: a quarter of the memory, at least the stock 128 MB, at most 2 GB (a support
 *   desk's whole database at a million messages is under 1 GB; a larger buffer table only makes every
 *   lookup in it dearer: 4 GB measured no faster than 1 GB, and the walk of a common word's search
 *   slower, 28–32 ms against 25–29);
 * - `effective_cache_size`: half of it (the planner's guess of what the kernel caches; no allocation);
 * - `maintenance_work_mem`: a thirty-second, between the stock 64 MB and 512 MB (index builds of the
 *   migrations and the importer, and each autovacuum worker, may use it at once).
 *
 * `work_mem` stays at its 4 MB: every connection of both pools may use it several times over.
 */
export function memorySettings(bytes: number): Record<string, string> {
  const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));
  const mb = (value: number) => `${Math.floor(value / MiB)}MB`;
  return {
    shared_buffers: mb(clamp(bytes / 4, 128 * MiB, 2 * GiB)),
    effective_cache_size: mb(clamp(bytes / 2, 512 * MiB, 64 * GiB)),
    maintenance_work_mem: mb(clamp(bytes / 32, 64 * MiB, 512 * MiB)),
  };
}

/** cgroup v2, then v1: a container's memory limit ("max", or v1's near-2^63 number, is none). */
const LIMIT_FILES = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"];

/**
 * The memory the embedded server may size itself to: the machine's, or its container's limit when
 * that is lower (a container sees the host's total in /proc/meminfo).
 */
export function memoryBudget(total = totalmem(), read: (path: string) => string = (path) => readFileSync(path, "utf8")): number {
  let budget = total;
  for (const file of LIMIT_FILES) {
    let text: string;
    try {
      text = read(file).trim();
    } catch {
      continue;
    }
    const limit = Number(text);
    if (/^\d+$/.test(text) && limit > 0 && limit < budget) budget = limit;
  }
  return budget;
}
