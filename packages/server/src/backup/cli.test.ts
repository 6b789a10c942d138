import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { everyRow } from "../../test/backup-rig.js";
import { makeAdmin, makeQueue } from "../../test/factories.js";
import { createTestApp, openTestDatabase } from "../../test/harness.js";
import { runServerCli } from "../../test/server-cli.js";
import { startZapdesk } from "../../test/zapdesk-process.js";
import { type Database, embeddedConnection, openDatabase } from "../db/client.js";
import { rowsOf } from "./snapshot.js";

/** `npm run backup|restore` as the workspace runs it: the CLI in the server package, its output and exit code. */
const cli = async (args: string[], env: Record<string, string>) => {
  const { code, output } = await runServerCli("src/backup/cli.ts", args, env);
  return { code: code ?? 1, output };
};

describe("npm run backup / npm run restore with DATABASE_URL", () => {
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
      // Every row, and the restore's own audit entry (issue 22 §4).
      const rows = await everyRow(target);
      const isRestore = (j: string) => j.includes('"action":"backup.restored"');
      expect(rows.audit_log?.filter(isRestore)).toHaveLength(1);
      rows.audit_log = rows.audit_log!.filter((j) => !isRestore(j));
      expect(rows).toEqual(await everyRow(t.database));

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

/** The tables a quiet install does not touch by itself (no jobs write them without activity). */
const CONVERSATION_TABLES = ["users", "queues", "whatsapps", "contacts", "tickets", "messages"];
const conversations = async (database: Database) =>
  Object.fromEntries(Object.entries(await everyRow(database)).filter(([table]) => CONVERSATION_TABLES.includes(table)));

describe("npm run backup of a running embedded install, restored into a server and into a new embedded install", () => {
  it("joins the running install's own PostgreSQL, and every row and file comes back", async () => {
    const dir = await mkdtemp(join(tmpdir(), "zapdesk-cli-running-"));
    const dataDir = join(dir, "data");
    const server = await startZapdesk({ DATA_DIR: dataDir });
    let source: Database | undefined;
    const target = await openTestDatabase();
    try {
      await server.healthy();
      const api = async (method: string, path: string, body?: unknown, token?: string) => {
        const res = await fetch(`${server.origin}/api${path}`, {
          method,
          headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        expect(res.status, await res.clone().text()).toBeLessThan(300);
        return res.json() as Promise<Record<string, unknown>>;
      };
      const { token } = (await api("POST", "/auth/login", { email: "admin@zapdesk.test", password: "admin-pass" })) as {
        token: string;
      };
      const connection = await api(
        "POST",
        "/whatsapp",
        { name: "Sim", provider: "simulator", queueIds: [], greetingMessage: "", farewellMessage: "", isDefault: true },
        token,
      );
      await vi.waitFor(
        async () => expect((await api("GET", `/whatsapp/${connection.id}`, undefined, token)).status).toBe("CONNECTED"),
        {
          timeout: 30_000,
        },
      );
      const pdf = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.from("running install ".repeat(500))]);
      for (const [i, from] of ["5511987650001", "5511987650002"].entries()) {
        await api(
          "POST",
          `/simulator/${connection.id}/inbound`,
          {
            from,
            body: `oi ${i}`,
            media: { mimetype: "application/pdf", filename: "doc.pdf", dataBase64: pdf.toString("base64") },
          },
          token,
        );
      }
      source = await openDatabase({ url: embeddedConnection(dataDir).url, poolSize: 2 });
      const stored = source;
      await vi.waitFor(
        async () => {
          const [{ n }] = await rowsOf<{ n: number }>(stored.db, "select count(media_path)::int as n from messages");
          expect(n).toBe(2);
        },
        { timeout: 30_000 },
      );

      const made = await cli(["backup", "running.zdb"], { DATA_DIR: dataDir, INIT_CWD: dir });
      expect(made.code, made.output).toBe(0);
      // The install kept serving while its backup was written.
      expect((await fetch(`${server.origin}/api/health`)).status).toBe(200);

      const targetData = join(dir, "server-media");
      const intoServer = await cli(["restore", "running.zdb"], { DATA_DIR: targetData, INIT_CWD: dir, DATABASE_URL: target.url });
      expect(intoServer.code, intoServer.output).toBe(0);
      expect(await conversations(target)).toEqual(await conversations(source));
      const paths = await rowsOf<{ p: string }>(target.db, "select media_path as p from messages where media_path is not null");
      expect(paths).toHaveLength(2);
      for (const { p } of paths) expect(await readFile(join(targetData, "media", p))).toEqual(pdf);

      // A new embedded install (no server running on it): the command starts its PostgreSQL itself.
      const fresh = join(dir, "fresh");
      const intoEmbedded = await cli(["restore", "running.zdb"], { DATA_DIR: fresh, INIT_CWD: dir });
      expect(intoEmbedded.code, intoEmbedded.output).toBe(0);
      const restored = await openDatabase({ dataDir: fresh, poolSize: 2 });
      try {
        expect(await conversations(restored)).toEqual(await conversations(source));
      } finally {
        await restored.close();
      }
    } finally {
      await source?.close();
      server.child.kill("SIGTERM");
      await server.exited;
      await target.close();
      await target.drop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
