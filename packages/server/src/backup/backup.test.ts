import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerSendsFile, everyRow, freshMedia, openEmbedded } from "../../test/backup-rig.js";
import { customerNumber, customerWrites, eventually, makeSimulatorConnection } from "../../test/conversation.js";
import { makeAdmin, makeQueue, type TestUser } from "../../test/factories.js";
import { createTestApp, openTestDatabase, type TestApp } from "../../test/harness.js";
import { startS3rver } from "../../test/s3/s3-rig.js";
import type { Database } from "../db/client.js";
import { createS3Storage } from "../media/s3-storage.js";
import { createMediaStorage } from "../media/storage.js";
import { writeBackup } from "./backup.js";
import { restoreBackup } from "./restore.js";
import { rowsOf } from "./snapshot.js";

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "zapdesk-backups-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

async function backupOf(t: TestApp, name: string) {
  const file = join(scratch, name);
  const trailer = await writeBackup(createWriteStream(file), {
    database: t.database,
    storage: createMediaStorage(join(t.config.dataDir, "media")),
    mediaKind: "local",
  });
  return { file, trailer };
}

describe("the move from the embedded database to a PostgreSQL server", () => {
  let source: TestApp;
  let admin: TestUser;
  let files: Buffer[];

  beforeAll(async () => {
    source = await createTestApp({ database: await openEmbedded() });
    admin = await makeAdmin(source);
    await makeQueue(source);
    const connection = await makeSimulatorConnection(source, admin, { isDefault: true });
    files = [];
    for (let i = 0; i < 4; i++) {
      const from = customerNumber();
      await customerWrites(source, admin, connection.id, { from, body: `hello ${i}, it's "me" \\ ünïcode ✓` });
      files.push(await customerSendsFile(source, admin, connection.id, from));
    }
    // Inbound media is stored by the pipeline after the message: wait for every file.
    await eventually(async () => {
      const [{ n }] = await rowsOf<{ n: number }>(source.database.db, "select count(media_path)::int as n from messages");
      expect(n).toBe(4);
    });
  });
  afterAll(async () => {
    await source.close();
    await source.database.close();
  });

  it("restores every row and file, verified, into a server (TEST_DATABASE_URL) or another embedded database", async () => {
    // A move is a backup of an install that is then left behind, so it stops first (what it
    // wrote after the backup would be lost). Running, it would also renew its connection lease
    // every few seconds and drift from its own backup while the two are compared (a running
    // install's backup is the next test's). Its database and files stay.
    await source.app.close();
    const { file, trailer } = await backupOf(source, "move.zdb");
    expect(trailer.files).toBe(4);
    expect(trailer.tables.messages).toBeGreaterThanOrEqual(8);

    const target = await openTestDatabase();
    const media = await freshMedia();
    try {
      const report = await restoreBackup(createReadStream(file), { database: target, storage: media.storage });
      expect(report.files).toBe(4);
      expect(report.missing).toEqual([]);
      expect(report.tables.find((t) => t.name === "messages")?.rows).toBe(trailer.tables.messages);

      // Row for row, every table: the same text PostgreSQL gives for each row on both sides, but
      // the audit entry of the restore itself (issue 22 §4), written into the restored trail.
      const rows = await everyRow(target);
      const isRestore = (j: string) => j.includes('"action":"backup.restored"');
      expect(rows.audit_log?.filter(isRestore)).toHaveLength(1);
      rows.audit_log = rows.audit_log!.filter((j) => !isRestore(j));
      expect(rows).toEqual(await everyRow(source.database));
      // Every file, byte for byte, under the name its row gives.
      const paths = await rowsOf<{ p: string }>(
        target.db,
        "select media_path as p from messages where media_path is not null order by id",
      );
      const restored = await Promise.all(paths.map(({ p }) => readFile(join(media.root, p))));
      expect(restored.map((b) => b.toString("hex")).sort()).toEqual(files.map((b) => b.toString("hex")).sort());

      // The restored install works: sign-in, and new rows get ids after the restored ones.
      const moved = await createTestApp({ database: target, start: false, config: { dataDir: media.root } });
      try {
        const login = await moved.app.inject({
          method: "POST",
          url: "/api/auth/login",
          payload: { email: admin.email, password: "secret-pass" },
        });
        expect(login.statusCode, login.body).toBe(200);
        const [{ max }] = await rowsOf<{ max: number }>(target.db, "select max(id) as max from queues");
        const created = await makeQueue(moved);
        expect(created.id).toBeGreaterThan(Number(max));
      } finally {
        await moved.app.close();
      }
    } finally {
      await target.close();
      await target.drop();
    }
  });
});

describe("a backup of a running install", () => {
  // An app, a dump while customers write, and a restore into a new database: 6–14 s alone, and past
  // the default 30 s with a second suite running on two cores: its own, longer bound.
  it("while customers keep writing: restored elsewhere with every row it saw, consistent, and every file", async () => {
    const t = await createTestApp();
    const admin = await makeAdmin(t);
    const connection = await makeSimulatorConnection(t, admin, { isDefault: true });
    for (let i = 0; i < 3; i++) await customerSendsFile(t, admin, connection.id);
    const before = await everyRow(t.database);

    let writing = true;
    let written = 0;
    const writes = (async () => {
      while (writing) {
        await customerSendsFile(t, admin, connection.id);
        written++;
      }
    })();
    // At least one write goes on while the backup runs.
    while (written === 0) await new Promise((resolve) => setImmediate(resolve));
    const { file, trailer } = await backupOf(t, "running.zdb");
    writing = false;
    await writes;

    const target: Database & { drop(): Promise<void> } = await openTestDatabase();
    const media = await freshMedia();
    try {
      await restoreBackup(createReadStream(file), { database: target, storage: media.storage });
      const after = await everyRow(target);
      // Every message and ticket that existed before the backup began is there...
      const restoredMessages = new Set(after.messages);
      const beforeIds = before.messages.map((row) => JSON.parse(row).id as string);
      const restoredIds = new Set(after.messages.map((row) => JSON.parse(row).id as string));
      for (const id of beforeIds) expect(restoredIds.has(id)).toBe(true);
      // ...every restored message is one the install really holds, and the counts are the backup's.
      const sourceIds = new Set((await everyRow(t.database)).messages.map((row) => JSON.parse(row).id as string));
      for (const id of restoredIds) expect(sourceIds.has(id)).toBe(true);
      expect(restoredMessages.size).toBe(trailer.tables.messages);
      // Each message's file is there with its bytes.
      const paths = await rowsOf<{ p: string }>(target.db, "select media_path as p from messages where media_path is not null");
      expect(paths.length).toBe(trailer.files);
      for (const { p } of paths)
        expect(await readFile(join(media.root, p))).toEqual(await readFile(join(t.config.dataDir, "media", p)));
    } finally {
      await target.close();
      await target.drop();
      await t.close();
    }
  }, 120_000);
});

describe("media in an S3-compatible bucket (MEDIA_STORAGE=s3)", () => {
  it("are read from the bucket into the backup and put back into another bucket under the same keys", async () => {
    const s3 = await startS3rver();
    const from = await s3.bucket();
    const t = await createTestApp({ config: { mediaStorage: { kind: "s3", ...from } } });
    const target = await openTestDatabase();
    try {
      const admin = await makeAdmin(t);
      const connection = await makeSimulatorConnection(t, admin, { isDefault: true });
      const sent = [await customerSendsFile(t, admin, connection.id), await customerSendsFile(t, admin, connection.id)];
      await t.pipeline.idle();
      await eventually(async () => expect(await s3.keys(from.bucket)).toHaveLength(2));

      const file = join(scratch, "s3.zdb");
      const source = createS3Storage(from);
      const trailer = await writeBackup(createWriteStream(file), { database: t.database, storage: source, mediaKind: "s3" });
      expect(trailer.files).toBe(2);

      const to = await s3.bucket();
      const storage = createS3Storage(to);
      const report = await restoreBackup(createReadStream(file), { database: target, storage });
      expect(report.files).toBe(2);
      expect((await s3.keys(to.bucket)).sort()).toEqual((await s3.keys(from.bucket)).sort());
      const restored = await Promise.all(
        (await s3.keys(to.bucket)).map(async (key) => buffer((await storage.open(key))!.stream)),
      );
      expect(restored.map((b) => b.toString("hex")).sort()).toEqual(sent.map((b) => b.toString("hex")).sort());
      await Promise.all([source.close(), storage.close()]);
    } finally {
      await target.close();
      await target.drop();
      await t.close();
      await s3.close();
    }
  });
});
