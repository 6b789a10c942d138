import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { type Config, loadConfig } from "../src/config.js";
import { openDatabase } from "../src/db/client.js";
import { migrate } from "../src/db/migrate.js";
import { seed } from "../src/db/seed.js";
import { openTestDatabase } from "./harness.js";

const dataDir = mkdtempSync(join(tmpdir(), "zapdesk-persist-"));
/** PostgreSQL runs restart against a database of their own on the server; embedded runs start the embedded PostgreSQL of DATA_DIR. */
let serverDatabase: { url?: string; drop(): Promise<void> } | undefined;

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) return;
  const database = await openTestDatabase();
  await database.close();
  serverDatabase = database;
});
afterAll(async () => {
  await serverDatabase?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const env = {
  DATA_DIR: dataDir,
  ADMIN_EMAIL: "owner@zapdesk.test",
  ADMIN_PASSWORD: "owner-pass",
  LOG_LEVEL: "silent" as const,
  WEB_DIST: "/nonexistent",
};

async function openStore() {
  if (serverDatabase?.url) return openDatabase({ url: serverDatabase.url, poolSize: 2 });
  return openDatabase({ dataDir, poolSize: 2 });
}

/** What main.ts does on start, without listening. */
async function start() {
  const config: Config = loadConfig(env);
  const database = await openStore();
  const applied = await migrate(database);
  const seeded = await seed(database.db, { email: config.adminEmail, password: config.adminPassword, name: config.adminName });
  const { app } = await buildApp({ config, database, logger: false });
  await app.ready();
  return {
    app,
    config,
    applied,
    seeded,
    async stop() {
      await app.close();
      await database.close();
    },
  };
}

describe(`the ${process.env.TEST_DATABASE_URL ? "PostgreSQL-backed" : "embedded"} server across a restart`, () => {
  it("keeps its data and JWT secrets in DATA_DIR", async () => {
    const first = await start();
    expect(first.seeded.adminCreated).toBe(true);
    const login = await first.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const auth = { authorization: `Bearer ${login.json().token}` };
    const refresh = login.cookies.find((c) => c.name === "jrt")?.value as string;
    const contact = await first.app.inject({
      method: "POST",
      url: "/api/contacts",
      headers: auth,
      payload: { name: "Kept Contact", number: "5511912345678", extraInfo: [{ name: "plan", value: "gold" }] },
    });
    expect(contact.statusCode).toBe(200);
    const queue = await first.app.inject({
      method: "POST",
      url: "/api/queue",
      headers: auth,
      payload: { name: "Kept Queue", color: "#123456" },
    });
    expect(queue.statusCode).toBe(200);
    const setting = await first.app.inject({
      method: "PUT",
      url: "/api/settings/timeCreateNewTicket",
      headers: auth,
      payload: { value: "300" },
    });
    expect(setting.statusCode).toBe(200);
    const apiToken = (await first.app.inject({ method: "GET", url: "/api/settings", headers: auth }))
      .json()
      .find((s: { key: string }) => s.key === "userApiToken").value;
    const secrets = [first.config.jwtSecret, first.config.jwtRefreshSecret];
    await first.stop();

    const second = await start();
    try {
      expect(second.applied).toEqual([]);
      expect(second.seeded.adminCreated).toBe(false);
      expect([second.config.jwtSecret, second.config.jwtRefreshSecret]).toEqual(secrets);

      // The access token signed before the restart still works, and so does the refresh cookie.
      const kept = await second.app.inject({ method: "GET", url: `/api/contacts/${contact.json().id}`, headers: auth });
      expect(kept.statusCode).toBe(200);
      expect(kept.json()).toMatchObject({
        name: "Kept Contact",
        number: "5511912345678",
        extraInfo: [{ name: "plan", value: "gold" }],
      });
      const queues = await second.app.inject({ method: "GET", url: "/api/queue", headers: auth });
      expect(queues.json()).toEqual([expect.objectContaining({ name: "Kept Queue", color: "#123456" })]);
      const settings = (await second.app.inject({ method: "GET", url: "/api/settings", headers: auth })).json();
      expect(settings).toContainEqual({ key: "timeCreateNewTicket", value: "300" });
      expect(settings).toContainEqual({ key: "userApiToken", value: apiToken });
      const refreshed = await second.app.inject({ method: "POST", url: "/api/auth/refresh_token", cookies: { jrt: refresh } });
      expect(refreshed.statusCode).toBe(200);
      const users = await second.app.inject({ method: "GET", url: "/api/users", headers: auth });
      expect(users.json().count).toBe(1);
    } finally {
      await second.stop();
    }
    // Two cold starts of an on-disk database: slow on a busy machine.
  }, 120_000);
});
