import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { claimRunFolder, removeAbandonedRuns, scratchRoot } from "./scratch-root.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A root with a run's two folders, `zapdesk-test-<run>` marked with `pid` when one is given. */
function runIn(root: string, run: string, pid?: number) {
  const test = join(root, `zapdesk-test-${run}`);
  const tmp = join(root, `zapdesk-tmp-${run}`);
  mkdirSync(join(test, "postgres"), { recursive: true });
  mkdirSync(tmp, { recursive: true });
  if (pid !== undefined) writeFileSync(join(test, "owner.pid"), String(pid));
  return [test, tmp] as const;
}

describe("the test run's folders (scratch-root.ts)", () => {
  it("removes the folders of a run whose process is gone, keeps a live run's and what is not a run's", () => {
    const root = mkdtempSync(join(tmpdir(), "zapdesk-scratch-"));
    roots.push(root);
    // A process that has ended: its pid is free (the kernel does not hand it out again at once).
    const ended = spawnSync(process.execPath, ["-e", "0"]).pid as number;
    const dead = runIn(root, "dead_1", ended);
    const live = runIn(root, "live_2");
    claimRunFolder(live[0]);
    const unmarkedNew = runIn(root, "new_3");
    const unmarkedOld = runIn(root, "old_4");
    const dayAndMore = new Date(Date.now() - 25 * 3_600_000);
    for (const folder of unmarkedOld) utimesSync(folder, dayAndMore, dayAndMore);
    const other = join(root, "zapdesk-other-keep");
    mkdirSync(other);
    // A browser journeys' run: one folder, marked by its runner.
    const journeysDead = join(root, "zapdesk-e2e-aB3dE5");
    mkdirSync(journeysDead);
    writeFileSync(join(journeysDead, "owner.pid"), String(ended));
    const journeysLive = join(root, "zapdesk-e2e-fG7hI9");
    mkdirSync(journeysLive);
    claimRunFolder(journeysLive);

    expect(removeAbandonedRuns(root).sort()).toEqual(["aB3dE5", "dead_1", "old_4"]);
    expect(existsSync(journeysDead)).toBe(false);
    expect(existsSync(journeysLive)).toBe(true);

    for (const folder of dead) expect(existsSync(folder), folder).toBe(false);
    for (const folder of unmarkedOld) expect(existsSync(folder), folder).toBe(false);
    for (const folder of [...live, ...unmarkedNew, other]) expect(existsSync(folder), folder).toBe(true);
  });

  it("is /dev/shm when it can hold the run, else the temporary folder; ZAPDESK_TEST_TMP chooses", () => {
    vi.stubEnv("ZAPDESK_TEST_TMP", "/somewhere/else");
    expect(scratchRoot()).toBe("/somewhere/else");
    vi.stubEnv("ZAPDESK_TEST_TMP", "");
    expect(["/dev/shm", tmpdir()]).toContain(scratchRoot());
  });
});
