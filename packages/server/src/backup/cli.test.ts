import { spawn } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { everyRow } from "../../test/backup-rig.js";
import { makeAdmin, makeQueue } from "../../test/factories.js";
import { createTestApp, openTestDatabase } from "../../test/harness.js";

const serverRoot = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** `npm run backup|restore` as the workspace runs it: the CLI in the server package, its output and exit code. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/backup/cli.ts", ...args], {
      cwd: serverRoot,
      env: { ...process.env, ...env, LOG_LEVEL: "silent" },
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("npm run backup / npm run restore (TEST_DATABASE_URL)", () => {
  it("backs up DATABASE_URL to a file, restores it into an empty database, refuses one with data", async () => {
    const source = await openTestDatabase();
    const t = await createTestApp({ database: source, start: false });
    const target = await openTestDatabase();
    const dir = await mkdtemp(join(tmpdir(), "zapdesk-cli-"));
    try {
      await makeAdmin(t);
      await makeQueue(t, { name: "Support" });
      const env = { DATA_DIR: t.config.dataDir, INIT_CWD: dir };
      const made = await cli(["backup", "move.zdb"], { ...env, DATABASE_URL: source.url as string });
      expect(made.code, made.output).toBe(0);
      expect(made.output).toContain(`Backup written to ${join(dir, "move.zdb")}`);
      expect((await stat(join(dir, "move.zdb"))).size).toBeGreaterThan(0);

      const restored = await cli(["restore", "move.zdb"], { ...env, DATABASE_URL: target.url as string });
      expect(restored.code, restored.output).toBe(0);
      expect(restored.output).toMatch(/queues\s+1 rows/);
      expect(await everyRow(target)).toEqual(await everyRow(t.database));

      const again = await cli(["restore", "move.zdb"], { ...env, DATABASE_URL: target.url as string });
      expect(again.code).toBe(1);
      expect(again.output).toContain("already holds data");
      expect((await cli(["restore", "move.zdb", "--force"], { ...env, DATABASE_URL: target.url as string })).code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await target.close();
      await target.drop();
      await t.close();
      await source.close();
      await source.drop();
    }
  }, 120_000);
});
