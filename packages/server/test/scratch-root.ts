import { accessSync, constants, readdirSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isAlive } from "../src/db/embedded/holder.js";

/**
 * Where a test run keeps its PostgreSQL and its tests' temporary files: the machine's memory file
 * system (`/dev/shm`) when it is writable and has room, else the system's temporary folder;
 * `ZAPDESK_TEST_TMP` names another. Nothing there outlives the run (durability is off). On a disk
 * each clone of the template database costs its PostgreSQL about half a second of kernel time,
 * about 30 ms in memory (docs/testing.md, tenth pass).
 */
export function scratchRoot(): string {
  if (process.env.ZAPDESK_TEST_TMP) return process.env.ZAPDESK_TEST_TMP;
  const shm = "/dev/shm";
  try {
    accessSync(shm, constants.W_OK);
    const { bavail, bsize } = statfsSync(shm);
    if (bavail * bsize >= 4 * 1024 ** 3) return shm;
  } catch {
    // no memory file system here
  }
  return tmpdir();
}

/** A test run's folders (test/global-setup.ts), and a browser journeys' run's (e2e/support/global-setup.ts). */
const RUN_FOLDER = /^zapdesk-(test|tmp|e2e)-(.+)$/;
const OWNER = "owner.pid";

/**
 * Marks a run's folder with the process that owns it (the vitest process, the journeys' runner),
 * for `removeAbandonedRuns`.
 */
export function claimRunFolder(dir: string): void {
  writeFileSync(join(dir, OWNER), String(process.pid));
}

/**
 * The folders of runs that were killed before their teardown: in memory they would hold the
 * machine's RAM until a reboot. A run's folders go when the process named in its `owner.pid` is
 * gone, or, without one, when they are a day old. A PostgreSQL left running in one stops by itself
 * once its folder is gone. Returns the ids of the runs removed.
 */
export function removeAbandonedRuns(root: string): string[] {
  let names: string[] = [];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  const removed: string[] = [];
  const runs = new Map<string, string[]>();
  for (const name of names) {
    const run = RUN_FOLDER.exec(name)?.[2];
    if (run) runs.set(run, [...(runs.get(run) ?? []), join(root, name)]);
  }
  for (const [run, folders] of runs) {
    const owner = folders.map(ownerOf).find((pid) => pid !== undefined);
    const abandoned =
      owner !== undefined
        ? !isAlive(owner)
        : // (A folder another run's teardown removes meanwhile counts as old.)
          folders.every((folder) => Date.now() - (statSync(folder, { throwIfNoEntry: false })?.mtimeMs ?? 0) > 86_400_000);
    if (!abandoned) continue;
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    removed.push(run);
  }
  return removed;
}

/** The process a folder's `owner.pid` names, if it has one. */
function ownerOf(folder: string): number | undefined {
  try {
    return Number(readFileSync(join(folder, OWNER), "utf8"));
  } catch {
    return undefined;
  }
}
