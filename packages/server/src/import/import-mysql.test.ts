import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { login } from "../../test/factories.js";
import { createTestApp, openTestDatabase } from "../../test/harness.js";
import { fillCommunity, fillPress, OLD_PASSWORD } from "../../test/import-fixtures/data.js";
import { useImportRig } from "../../test/import-fixtures/rig.js";
import { mysqlReachable, mysqlSource } from "../../test/import-fixtures/sources.js";
import { count, totals } from "../../test/import-fixtures/target.js";
import { createMediaStorage, type MediaStorage } from "../media/storage.js";
import { detectFlavour } from "./flavours.js";
import { IMPORT_MEDIA_MISSING, type ImportReport, runImport } from "./importer.js";
import { openSource } from "./source.js";

// Thousands of rows per flavour on a machine shared with other suites: minutes, not the default 30 s.
const mysqlUp = await mysqlReachable();

describe.skipIf(!mysqlUp)("import from Whaticket Community on MariaDB", { timeout: 240_000 }, () => {
  const rig = useImportRig(
    () => mysqlSource("community.mysql.sql"),
    (src, media) => fillCommunity(src, media),
    async (target) => {
      // Already in Zapdesk: a queue of the same name, an account with the same email.
      await target.query("insert into queues (name, color) values ('Vendas', '#00ff00')");
      await target.query(
        "insert into users (name, email, password_hash, profile) values ('Ana here', 'ANA@old.test', 'x', 'admin')",
      );
    },
  );
  let storage: MediaStorage;
  let first: ImportReport;
  beforeAll(() => {
    storage = createMediaStorage(rig.storageDir);
  });

  it("recognises the flavour from SequelizeMeta", async () => {
    const { source } = rig;
    const detection = await detectFlavour(source);
    expect(detection.flavour).toBe("community");
    expect(detection.last).toBe("20220223095932-add-whatsapp-to-user");
  });

  it("a dry run reads everything, writes nothing, and reports what the import will do", async () => {
    const { target, source, media, expected } = rig;
    const before = await totals(target);
    const report = await runImport({
      source,
      flavour: "community",
      database: target,
      mediaDirs: [media],
      dryRun: true,
      batchSize: 400,
    });
    expect(await totals(target)).toEqual(before);
    expect(await count(target, "select count(*) as n from import_map")).toBe(0);
    expect(report.dryRun).toBe(true);
    expect(report.entities.messages.imported).toBe(expected.messages);
    expect(report.media.missing).toBe(expected.missingMedia);
    expect(report.verification.complete).toBe(true);
  });

  it("imports staff, queues, connections, quick answers, contacts (twins merged), tickets and messages, verified", async () => {
    const { target, source, media, expected } = rig;
    first = await runImport({ source, flavour: "community", database: target, storage, mediaDirs: [media], batchSize: 400 });
    const e = first.entities;
    expect(first.verification.complete).toBe(true);
    expect(first.verification.sample.length).toBeGreaterThan(0);
    // Staff: the clashing email is reported and the existing account kept.
    expect(e.users).toMatchObject({ source: 3, imported: 2, merged: 1, skipped: 0 });
    expect(first.merges.find((m) => m.entity === "users")?.reason).toMatch(/ana@old.test already has an account/);
    expect(
      (await target.query<{ password_hash: string }>("select password_hash from users where email = 'ANA@old.test'"))[0]
        ?.password_hash,
    ).toBe("x");
    expect(e.queues).toMatchObject({ source: 3, imported: 2, merged: 1 });
    expect(e.userQueues.imported).toBe(3);
    expect(e.connections.imported).toBe(1);
    expect(e.connectionQueues.imported).toBe(2);
    const [conn] = await target.query<{ status: string; greeting_message: string; farewell_message: string }>(
      "select status, greeting_message, farewell_message from whatsapps",
    );
    expect(conn).toEqual({ status: "DISCONNECTED", greeting_message: "Bem-vindo!", farewell_message: "Até logo" });
    expect(e.quickAnswers.imported).toBe(2);
    // Settings with a meaning here carry over; the API token (a secret) never does.
    expect(e.settings).toMatchObject({ source: 1, imported: 1 });
    expect((await target.query<{ value: string }>("select value from settings where key = 'userCreation'"))[0]?.value).toBe(
      "enabled",
    );
    expect(await count(target, "select count(*) as n from settings where value = 'secret-token'")).toBe(0);
    // Contacts: every twin folded into its 13-digit form, its custom field carried along.
    expect(e.contacts).toMatchObject({
      source: expected.contacts,
      imported: expected.contacts - expected.twins,
      merged: expected.twins,
    });
    expect(first.merges.filter((m) => m.entity === "contacts" && /ninth-digit twin/.test(m.reason))).toHaveLength(expected.twins);
    const [twin] = await target.query<{ number: string; fields: string }>(
      `select c.number, string_agg(f.name || '=' || f.value, ',' order by f.name) as fields
       from contacts c join contact_extra_info f on f.contact_id = c.id where c.number = '5511970000001' group by c.number`,
    );
    expect(twin?.fields).toBe("CPF=000.000.001-00,Plano=Gold");
    expect(await count(target, "select count(*) as n from contacts where number = '551170000001'")).toBe(0);
    // …and still at most one active ticket per contact and connection.
    expect(e.tickets.imported).toBe(expected.tickets);
    expect(first.adjustments.some((a) => a.entity === "tickets" && /already has an active ticket/.test(a.note))).toBe(true);
    const [twinTickets] = await target.query<{ n: string }>(
      "select count(*) as n from tickets t join contacts c on c.id = t.contact_id where c.number = '5511970000001'",
    );
    expect(Number(twinTickets?.n)).toBe(3);
    // Messages: all of them, times read in -03:00, quotes linked, deleted kept, emoji intact.
    expect(e.messages).toMatchObject({ source: expected.messages, imported: expected.messages, skipped: 0 });
    const [known] = await target.query<{ created_at: Date }>(
      "select m.created_at from messages m join import_map i on i.entity = 'message' and i.target_id = m.id where i.source_id = $1",
      [expected.knownTime.sourceId],
    );
    expect(known?.created_at.toISOString()).toBe(expected.knownTime.utc);
    expect(await count(target, "select count(*) as n from messages where quoted_msg_id is not null")).toBe(expected.tickets);
    expect(await count(target, "select count(*) as n from messages where is_deleted")).toBeGreaterThan(0);
    expect(await count(target, "select count(*) as n from messages where body like '% do ticket 7!'")).toBe(1);
    expect(await count(target, "select count(*) as n from messages where body like '%🙏🏽%'")).toBeGreaterThan(0);
    expect(await count(target, "select count(*) as n from messages where from_me and ack = 3")).toBeGreaterThan(0);
    // Media: present files copied into storage, missing ones marked and reported.
    expect(first.media).toMatchObject({ copied: expected.presentMedia, missing: expected.missingMedia });
    const stored = await target.query<{ media_path: string }>("select media_path from messages where media_path is not null");
    expect(stored).toHaveLength(expected.presentMedia);
    const opened = await storage.open(stored[0]?.media_path as string);
    expect(opened?.size).toBeGreaterThan(0);
    opened?.stream.destroy();
    expect(await count(target, "select count(*) as n from messages where media_error = $1", [IMPORT_MEDIA_MISSING])).toBe(
      expected.missingMedia,
    );
    expect(first.adjustments.filter((a) => /file not found in the old system/.test(a.note))).toHaveLength(expected.missingMedia);
    // Imported conversations are searchable like native ones.
    expect(
      await count(target, "select count(*) as n from messages where search @@ to_tsquery('simple', 'acao')"),
    ).toBeGreaterThan(0);
  });

  it("a second run imports nothing twice", async () => {
    const { target, source, media, expected } = rig;
    const before = await totals(target);
    const again = await runImport({
      source,
      flavour: "community",
      database: target,
      storage,
      mediaDirs: [media],
      batchSize: 400,
    });
    expect(await totals(target)).toEqual(before);
    expect(again.entities.messages).toMatchObject({ imported: 0, already: expected.messages });
    expect(again.entities.contacts).toMatchObject({ imported: 0, merged: 0, already: expected.contacts });
    expect(again.verification.complete).toBe(true);
  });

  it("an imported user signs in with the old password, which is then re-hashed to argon2", async () => {
    const { target } = rig;
    const t = await createTestApp({ database: target, start: false });
    try {
      await login(t, { email: "bruno@old.test", password: OLD_PASSWORD });
      const [row] = await target.query<{ password_hash: string }>(
        "select password_hash from users where email = 'bruno@old.test'",
      );
      expect(row?.password_hash).toMatch(/^\$argon2id\$/);
      await login(t, { email: "bruno@old.test", password: OLD_PASSWORD });
      await expect(login(t, { email: "carla@old.test", password: "wrong" })).rejects.toThrow(/401/);
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(!mysqlUp)("import from Press Ticket on MariaDB", { timeout: 240_000 }, () => {
  it("keeps the sending agent, makes a masteradmin an admin, folds numberLid aliases with their tickets, links tags once", async () => {
    const src = await mysqlSource("community.mysql.sql", "press.mysql.sql");
    const media = await mkdtemp(join(tmpdir(), "press-public-"));
    const target = await openTestDatabase();
    const source = await openSource(src.url);
    try {
      const x = await fillPress(src, media);
      expect((await detectFlavour(source)).flavour).toBe("press");
      const report = await runImport({ source, flavour: "press", database: target, mediaDirs: [media] });
      const e = report.entities;
      expect(report.verification.complete).toBe(true);
      expect(await count(target, "select count(*) as n from users where email = 'ana@old.test' and profile = 'admin'")).toBe(1);
      expect(e.messages).toMatchObject({ source: x.messages, imported: x.messages });
      const agent = "select count(*) as n from messages m join users u on u.id = m.user_id where u.email = 'bruno@old.test'";
      expect(await count(target, agent)).toBe(await count(target, "select count(*) as n from messages where from_me"));
      expect(e.contacts.merged).toBe(x.twins + x.aliases);
      const [first] = await target.query<{ lid: string; tickets: string; tags: string }>(
        `select c.lid, (select count(*) from tickets where contact_id = c.id) as tickets,
                (select count(*) from contact_tags where contact_id = c.id) as tags
         from contacts c where c.number = '5511970000001'`,
      );
      // Its own ticket, its twin's two, and the one opened under its LID.
      expect(first).toEqual({ lid: "400000000000001@lid", tickets: "4", tags: "1" });
      expect(e.contactTags).toMatchObject({ source: 2, imported: 1, already: 1 });
    } finally {
      await source.close();
      await src.drop();
      await target.drop();
      await rm(media, { recursive: true, force: true });
    }
  });
});
