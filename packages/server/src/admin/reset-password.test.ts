import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { makeAdmin, PASSWORD } from "../../test/factories.js";
import { createTestApp, openTestDatabase } from "../../test/harness.js";
import { runServerCli } from "../../test/server-cli.js";
import { startZapdesk } from "../../test/zapdesk-process.js";
import { openDatabase } from "../db/client.js";
import { refreshTokens, users } from "../db/schema.js";
import { verifyPassword } from "../lib/passwords.js";

/** `npm run admin:reset-password -- <email>` as the workspace runs it: the CLI in the server package. */
const cli = async (args: string[], env: Record<string, string>) => {
  const { code, output } = await runServerCli("src/admin/cli.ts", args, env);
  return { code: code ?? 1, output };
};

const printedPassword = (output: string) => /Password:\s+(\S+)/.exec(output)?.[1];

describe("npm run admin:reset-password (issue 20 §2.9)", () => {
  it("gives the user of DATABASE_URL a new password, printed once, and ends their sessions", async () => {
    const database = await openTestDatabase();
    const t = await createTestApp({ database, start: false });
    try {
      const admin = await makeAdmin(t);
      const login = (password: string) =>
        t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email: admin.email, password } });
      const before = await login(PASSWORD);
      expect(before.statusCode, before.body).toBe(200);
      const sessions = () => database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, admin.id));
      expect(await sessions()).toHaveLength(1);

      const env = { DATA_DIR: t.config.dataDir, DATABASE_URL: database.url };
      const reset = await cli([admin.email.toUpperCase()], env);
      expect(reset.code, reset.output).toBe(0);
      const password = printedPassword(reset.output);
      expect(password, reset.output).toMatch(/^[\w-]{16}$/);
      expect((await login(password as string)).statusCode).toBe(200);
      expect((await login(PASSWORD)).statusCode).toBe(401);
      // The session opened before is gone (the one just opened is the only one).
      expect(await sessions()).toHaveLength(1);

      const unknown = await cli(["nobody@zapdesk.test"], env);
      expect(unknown.code).toBe(1);
      expect(unknown.output).toContain("No user has the email nobody@zapdesk.test");
    } finally {
      await t.close();
      await database.close();
      await database.drop();
    }
  }, 120_000);

  it("works on the embedded database of a running install, and of one that is stopped", async () => {
    const dir = await mkdtemp(join(tmpdir(), "zapdesk-reset-"));
    const dataDir = join(dir, "data");
    const server = await startZapdesk({ DATA_DIR: dataDir });
    let stopped = false;
    try {
      await server.healthy();
      const login = (password: string) =>
        fetch(`${server.origin}/api/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "admin@zapdesk.test", password }),
        });
      expect((await login("admin-pass")).status).toBe(200);

      // Running: the command joins the install's own PostgreSQL.
      const running = await cli(["admin@zapdesk.test"], { DATA_DIR: dataDir });
      expect(running.code, running.output).toBe(0);
      const first = printedPassword(running.output) as string;
      expect((await login(first)).status).toBe(200);
      expect((await login("admin-pass")).status).toBe(401);

      // Stopped: the command starts the embedded PostgreSQL for its own length.
      server.child.kill("SIGTERM");
      await server.exited;
      stopped = true;
      const offline = await cli(["admin@zapdesk.test"], { DATA_DIR: dataDir });
      expect(offline.code, offline.output).toBe(0);
      const second = printedPassword(offline.output) as string;
      const database = await openDatabase({ dataDir, poolSize: 1 });
      try {
        const [row] = await database.db.select().from(users).where(eq(users.email, "admin@zapdesk.test"));
        expect(await verifyPassword(row.passwordHash, second)).toBe(true);
        expect(await verifyPassword(row.passwordHash, first)).toBe(false);
      } finally {
        await database.close();
      }
    } finally {
      if (!stopped) {
        server.child.kill("SIGTERM");
        await server.exited;
      }
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
