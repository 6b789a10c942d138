import { describe, expect, it } from "vitest";
import { customerWrites, makeSimulatorConnection } from "../../test/conversation.js";
import { makeAdmin } from "../../test/factories.js";
import { createTestApp } from "../../test/harness.js";
import { fillCommunity } from "../../test/import-fixtures/data.js";
import { useImportRig } from "../../test/import-fixtures/rig.js";
import { pgSource } from "../../test/import-fixtures/sources.js";
import { count } from "../../test/import-fixtures/target.js";
import { createMediaStorage } from "../media/storage.js";
import { detectFlavour } from "./flavours.js";
import { runImport } from "./importer.js";

// Issue 21: Whaticket Community runs on PostgreSQL too (DB_DIALECT=postgres): the same 34
// migrations, booleans instead of tinyint, timestamptz written in the -03:00 session.
describe("import from Whaticket Community on PostgreSQL", { timeout: 240_000 }, () => {
  const rig = useImportRig(
    () => pgSource("community.pg.sql"),
    (src, media) => fillCommunity(src, media, 300),
  );

  it("recognises the flavour, imports everything with twins merged and times in -03:00, and a second run adds nothing", async () => {
    const { target, source, media, storageDir, expected } = rig;
    const detection = await detectFlavour(source);
    expect(detection.flavour).toBe("community");
    const storage = createMediaStorage(storageDir);
    const importAll = () =>
      runImport({ source, flavour: "community", database: target, storage, mediaDirs: [media], batchSize: 200 });
    const report = await importAll();
    const e = report.entities;
    expect(report.verification.complete).toBe(true);
    expect(e.users).toMatchObject({ source: 3, imported: 3 });
    expect(e.queues).toMatchObject({ source: 3, imported: 3 });
    expect(e.connections.imported).toBe(1);
    expect(e.quickAnswers.imported).toBe(2);
    expect(e.contacts).toMatchObject({
      source: expected.contacts,
      imported: expected.contacts - expected.twins,
      merged: expected.twins,
    });
    expect(e.tickets.imported).toBe(expected.tickets);
    expect(e.messages).toMatchObject({ source: expected.messages, imported: expected.messages, skipped: 0 });
    const [known] = await target.query<{ created_at: Date }>(
      "select m.created_at from messages m join import_map i on i.entity = 'message' and i.target_id = m.id where i.source_id = $1",
      [expected.knownTime.sourceId],
    );
    expect(known?.created_at.toISOString()).toBe(expected.knownTime.utc);
    // Booleans read as such: outgoing messages, deleted ones, a default connection.
    expect(await count(target, "select count(*) as n from messages where from_me and ack = 3")).toBeGreaterThan(0);
    expect(await count(target, "select count(*) as n from messages where is_deleted")).toBeGreaterThan(0);
    expect(await count(target, "select count(*) as n from messages where quoted_msg_id is not null")).toBe(expected.tickets);
    expect(await count(target, "select count(*) as n from whatsapps where is_default")).toBe(1);
    expect(report.media).toMatchObject({ copied: expected.presentMedia, missing: expected.missingMedia });

    const again = await importAll();
    expect(again.entities.messages.imported).toBe(0);
    expect(await count(target, "select count(*) as n from messages")).toBe(expected.messages);
  });

  it("behaves like native data: the dashboard counts it, the export carries it, a customer writing again is the same contact", async () => {
    const { target } = rig;
    const t = await createTestApp({ database: target });
    try {
      const admin = await makeAdmin(t);
      const period = "from=2024-03-01&to=2024-03-31&tz=America/Sao_Paulo";
      const metrics = await t.app.inject({ method: "GET", url: `/api/dashboard/metrics?${period}`, headers: admin.auth });
      expect(metrics.statusCode, metrics.body).toBe(200);
      const closed = await count(target, "select count(*) as n from tickets where status = 'closed'");
      expect(closed).toBeGreaterThan(0);
      expect(metrics.json().overall.tickets).toBeGreaterThan(0);
      const csv = await t.app.inject({ method: "GET", url: `/api/tickets/export?${period}`, headers: admin.auth });
      expect(csv.statusCode, csv.body.slice(0, 200)).toBe(200);
      // A header line, then one line per closed ticket of the period.
      expect(csv.body.trim().split("\n").length - 1).toBe(closed);

      // The customer of an imported twin writes again from the old 12-digit form of the number.
      const [person] = await target.query<{ id: number }>("select id from contacts where number = '5511970000001'");
      const contacts = await count(target, "select count(*) as n from contacts");
      const connection = await makeSimulatorConnection(t, admin);
      await customerWrites(t, admin, connection.id, { from: "551170000001", body: "voltei" });
      const [written] = await target.query<{ contact_id: number }>("select contact_id from messages where body = 'voltei'");
      expect(written?.contact_id).toBe(person?.id);
      expect(await count(target, "select count(*) as n from contacts")).toBe(contacts);
    } finally {
      await t.close();
    }
  });
});
