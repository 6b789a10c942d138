import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshMedia } from "../../../test/backup-rig.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, manualClock, openTestDatabase, type TestApp } from "../../../test/harness.js";
import { restoreBackup } from "../../backup/restore.js";

const clock = manualClock(new Date(2026, 2, 4, 12, 0, 0));
let t: TestApp;
let admin: TestUser;
let agent: TestUser;

beforeAll(async () => {
  t = await createTestApp({ clock, start: false });
  admin = await makeAdmin(t);
  agent = await makeUser(t);
  await makeQueue(t, { name: "Sales" });
});
afterAll(() => t.close());

const call = (method: "GET" | "PUT" | "POST", url: string, user?: TestUser, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: user?.auth, payload });

/** Restores a backup's bytes into a fresh database: the queues it holds. */
async function restoredQueues(bytes: Buffer) {
  const target = await openTestDatabase();
  try {
    const media = await freshMedia();
    await restoreBackup(Readable.from([bytes]), { database: target, storage: media.storage });
    return (await target.query<{ name: string }>("select name from queues order by name")).map((q) => q.name);
  } finally {
    await target.close();
    await target.drop();
  }
}

describe("backup routes", () => {
  it("are for admins only: 401 without a session, 403 for an agent", async () => {
    for (const [method, url] of [
      ["GET", "/api/backups"],
      ["POST", "/api/backups"],
      ["GET", "/api/backups/download"],
      ["PUT", "/api/backups/schedule"],
    ] as const) {
      expect((await call(method, url)).statusCode, url).toBe(401);
      const refused = await call(method, url, agent, method === "PUT" ? { enabled: true, hour: 3, keep: 7 } : undefined);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().error).toBe("ERR_NO_PERMISSION");
    }
  });

  it("a backup made now is listed, downloaded and restorable; a fresh one streams the same data", async () => {
    const created = await call("POST", "/api/backups", admin);
    expect(created.statusCode, created.body).toBe(201);
    const { name } = created.json() as { name: string };
    expect(name).toMatch(/^zapdesk-.+\.zdb$/);
    const list = (await call("GET", "/api/backups", admin)).json();
    expect(list.backups.map((b: { name: string }) => b.name)).toContain(name);

    const stored = await call("GET", `/api/backups/${name}`, admin);
    expect(stored.statusCode).toBe(200);
    expect(stored.headers["content-disposition"]).toBe(`attachment; filename="${name}"`);
    expect(await restoredQueues(stored.rawPayload)).toEqual(["Sales"]);

    const fresh = await call("GET", "/api/backups/download", admin);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers["content-type"]).toBe("application/octet-stream");
    expect(await restoredQueues(fresh.rawPayload)).toEqual(["Sales"]);
  });

  it("refuses names it did not give and backups it does not have", async () => {
    expect((await call("GET", "/api/backups/..%2F.jwt_secret", admin)).statusCode).toBe(400);
    const missing = await call("GET", "/api/backups/zapdesk-2020-01-01T00-00-00Z.zdb", admin);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe("ERR_NO_BACKUP_FOUND");
  });

  it("schedules a daily backup: validated, written once a day after its hour, only the newest kept", async () => {
    expect((await call("PUT", "/api/backups/schedule", admin, { enabled: true, hour: 24, keep: 2 })).statusCode).toBe(400);
    expect((await call("PUT", "/api/backups/schedule", admin, { enabled: true, hour: 2, keep: 0 })).statusCode).toBe(400);
    const set = await call("PUT", "/api/backups/schedule", admin, { enabled: true, hour: 13, keep: 2 });
    expect(set.json()).toEqual({ enabled: true, hour: 13, keep: 2 });

    // 12:00, before the hour: nothing.
    expect(await t.backups.runSchedule()).toBeUndefined();
    const other = await createTestApp({ database: t.database, clock, start: false, config: { dataDir: t.config.dataDir } });
    try {
      const written: string[] = [];
      for (let day = 0; day < 3; day++) {
        clock.advance(day === 0 ? 2 * 3600_000 : 24 * 3600_000);
        // Two processes look at once: one writes the day's backup.
        const runs = await Promise.all([t.backups.runSchedule(), other.backups.runSchedule()]);
        expect(runs.filter(Boolean)).toHaveLength(1);
        written.push((runs.find(Boolean) as { name: string }).name);
        // Looking again the same day does nothing.
        expect(await t.backups.runSchedule()).toBeUndefined();
      }
      // Days went by on the test's clock: a fresh session reads the list.
      const listed = await call("GET", "/api/backups", await makeAdmin(t));
      expect(listed.statusCode, listed.body).toBe(200);
      const overview = listed.json();
      const names = overview.backups.map((b: { name: string }) => b.name);
      // Retention: the two newest of the scheduled ones remain (older ones went, on-demand ones included).
      expect(names).toEqual([written[2], written[1]]);
      expect(overview.lastRun).toMatchObject({ ok: true, name: written[2], error: null });
    } finally {
      await other.app.close();
    }
  });
});
