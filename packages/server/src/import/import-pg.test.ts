import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openTestDatabase } from "../../test/harness.js";
import { fillMultiflow, fillSaas, fillTicketz } from "../../test/import-fixtures/data.js";
import { useImportRig } from "../../test/import-fixtures/rig.js";
import { pgSource } from "../../test/import-fixtures/sources.js";
import { count } from "../../test/import-fixtures/target.js";
import { createMediaStorage } from "../media/storage.js";
import { detectFlavour } from "./flavours.js";
import { IMPORT_MEDIA_MISSING, runImport } from "./importer.js";
import { openSource } from "./source.js";

describe("import from Ticketz on PostgreSQL", { timeout: 240_000 }, () => {
  const rig = useImportRig(() => pgSource("ticketz.pg.sql"), fillTicketz);

  it("recognises Ticketz and asks which company to import", async () => {
    const { target, source } = rig;
    expect((await detectFlavour(source)).flavour).toBe("ticketz");
    await expect(runImport({ source, flavour: "ticketz", database: target })).rejects.toThrow(
      /2 companies: choose one with --company/,
    );
    await expect(runImport({ source, flavour: "ticketz", database: target, company: 9 })).rejects.toThrow(
      /company 9 is not in the source/,
    );
  });

  it("resumes after an interruption half-way through the messages, creating nothing twice", async () => {
    const { target, source, media, storageDir, expected } = rig;
    const storage = createMediaStorage(storageDir);
    let batches = 0;
    await expect(
      runImport({
        source,
        flavour: "ticketz",
        database: target,
        storage,
        mediaDirs: [media],
        company: 1,
        batchSize: 300,
        afterBatch: (entity) => {
          if (entity === "messages" && ++batches === 3) throw new Error("killed");
        },
      }),
    ).rejects.toThrow("killed");
    const partial = await count(target, "select count(*) as n from messages");
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(expected.messages);

    const report = await runImport({
      source,
      flavour: "ticketz",
      database: target,
      storage,
      mediaDirs: [media],
      company: 1,
      batchSize: 300,
    });
    const e = report.entities;
    expect(report.verification.complete).toBe(true);
    expect(e.messages.already).toBe(900);
    expect(e.messages.already + e.messages.imported + e.messages.merged).toBe(expected.messages);
    // The same WhatsApp id in two tickets of one contact is one message here.
    expect(await count(target, "select count(*) as n from import_map where entity = 'message' and merged")).toBe(10);
    expect(await count(target, "select count(*) as n from messages where not is_note")).toBe(expected.messages - 10);
    expect(
      await count(
        target,
        "select count(*) as n from (select wid from messages where wid is not null group by whatsapp_id, wid having count(*) > 1) d",
      ),
    ).toBe(0);
    // Only company 1.
    // (everything before the messages was imported by the interrupted run)
    expect(e.users).toMatchObject({ source: 2, already: 2, imported: 0 });
    expect(await count(target, "select count(*) as n from users where email = 'outro@outra.test'")).toBe(0);
    expect(await count(target, "select count(*) as n from users where profile = 'admin'")).toBe(1);
    expect(await count(target, "select count(*) as n from quick_answers")).toBe(2);
    expect(report.adjustments.some((a) => /1 chatbot menu options \(QueueOptions\) are not imported/.test(a.note))).toBe(true);
    // LID-only contacts folded into the person their LID belongs to; twins too.
    const mergedContacts = "select count(*) as n from import_map where entity = 'contact' and merged";
    expect(await count(target, mergedContacts)).toBe(expected.twins + expected.aliases);
    expect(await count(target, "select count(*) as n from contacts")).toBe(expected.contacts - expected.twins - expected.aliases);
    const [lidPerson] = await target.query<{ id: number; lid: string; tickets: string; fields: string }>(
      `select c.id, c.lid, (select count(*) from tickets where contact_id = c.id) as tickets,
              (select string_agg(name, ',') from contact_extra_info where contact_id = c.id) as fields
       from contacts c where c.number = '5521980000001'`,
    );
    expect(lidPerson?.lid).toBe("200000000000001@lid");
    expect(Number(lidPerson?.tickets)).toBe(3);
    expect(lidPerson?.fields).toBe("Origem");
    expect(await count(target, "select count(*) as n from contacts where number like '2000000000%'")).toBe(0);
    // Merged twin: the same custom field once.
    expect(e.contactFields).toMatchObject({ source: 3, already: 3 });
    expect(await count(target, "select count(*) as n from contact_extra_info")).toBe(2);
    // Acks on WhatsApp's scale (4 = read) become ours (3), times come from dataJson.
    expect(await count(target, "select count(*) as n from messages where from_me and not is_note and ack <> 3")).toBe(0);
    const [known] = await target.query<{ created_at: Date }>(
      "select m.created_at from messages m join import_map i on i.entity = 'message' and i.target_id = m.id where i.source_id = $1",
      [expected.knownTime.sourceId],
    );
    expect(known?.created_at.toISOString()).toBe(expected.knownTime.utc);
    // Notes, tags, quotes, media (present copied, missing marked, remote reported).
    expect(e.notes.imported).toBeGreaterThan(0);
    expect(await count(target, "select count(*) as n from messages where is_note")).toBe(e.notes.imported);
    expect(await count(target, "select count(*) as n from tags")).toBe(2);
    expect(await count(target, "select count(*) as n from contact_tags")).toBe(e.contactTags.source);
    expect(await count(target, "select count(*) as n from ticket_tags")).toBe(e.ticketTags.source);
    expect(await count(target, "select count(*) as n from messages where quoted_msg_id is not null")).toBeGreaterThan(0);
    expect(await count(target, "select count(*) as n from messages where media_path is not null")).toBe(expected.presentMedia);
    expect(await count(target, "select count(*) as n from messages where media_error = $1", [IMPORT_MEDIA_MISSING])).toBe(
      expected.missingMedia + 1,
    );
    expect(
      await count(target, "select count(*) as n from messages where media_name = 'file.pdf' and media_error is not null"),
    ).toBe(1);
    await storage.close();
  });
});

describe("import from Multiflow on PostgreSQL", { timeout: 240_000 }, () => {
  it("folds Contacts.lid aliases, turns isPrivate messages into notes, maps the extra statuses, skips Meta templates and other channels, finds media under company<id>/", async () => {
    const src = await pgSource("multiflow.pg.sql");
    const publicDir = await mkdtemp(join(tmpdir(), "multiflow-public-"));
    const storageDir = await mkdtemp(join(tmpdir(), "zapdesk-media-"));
    const target = await openTestDatabase();
    const source = await openSource(src.url);
    try {
      const x = await fillMultiflow(src, publicDir);
      expect((await detectFlavour(source)).flavour).toBe("multiflow");
      const storage = createMediaStorage(storageDir);
      const report = await runImport({ source, flavour: "multiflow", database: target, storage, mediaDirs: [publicDir] });
      await storage.close();
      const e = report.entities;
      expect(report.verification.complete).toBe(true);
      expect(report.company).toBe(1);
      expect(e.contacts).toMatchObject({ source: x.contacts, imported: x.contacts - x.aliases, merged: x.aliases });
      expect(await count(target, "select count(*) as n from contacts where lid like '3000000000%@lid'")).toBe(x.aliases);
      expect(e.messages).toMatchObject({ source: x.messages, imported: x.messages });
      expect(await count(target, "select count(*) as n from messages where is_note")).toBe(x.notes);
      expect(await count(target, "select count(*) as n from messages where wid like 'WID%'")).toBe(x.messages - x.notes);
      expect(
        await count(target, "select count(*) as n from messages where media_type = 'document' and media_path is not null"),
      ).toBe(x.present);
      expect(report.media).toMatchObject({ copied: x.present, missing: x.missing });
      expect(await count(target, "select count(*) as n from messages where quoted_msg_id is not null")).toBeGreaterThan(0);
      // Statuses: chatbot waits as pending; nps and lgpd are closed, each reported.
      expect(report.adjustments.filter((a) => /status (nps|lgpd) imported as closed/.test(a.note)).length).toBeGreaterThan(0);
      expect(await count(target, "select count(*) as n from tickets where status not in ('open', 'pending', 'closed')")).toBe(0);
      // One WhatsApp connection (the Facebook page is skipped), its Cloud API token never copied.
      expect(e.connections).toMatchObject({ imported: 1, skipped: 1 });
      expect(report.adjustments.some((a) => /Cloud API number \(phone number id 1098765\)/.test(a.note))).toBe(true);
      expect(await count(target, "select count(*) as n from whatsapps where cloud_access_token is not null")).toBe(0);
      expect(e.quickAnswers).toMatchObject({ imported: 1, skipped: 1 });
      expect(report.skips.find((s) => s.entity === "quickAnswers")?.reason).toMatch(/Meta message template/);
      // Issue 23 §5: a wallet (carteira) is the contact's owner; one whose agent or contact is missing is skipped.
      expect(e.contactOwners).toMatchObject({ source: x.wallets, imported: x.owned, skipped: x.wallets - x.owned });
      expect(await count(target, "select count(*) as n from contacts where owner_user_id is not null")).toBe(x.owned);
    } finally {
      await source.close();
      await src.drop();
      await target.drop();
      await rm(publicDir, { recursive: true, force: true });
      await rm(storageDir, { recursive: true, force: true });
    }
  });
});

describe("import from the Whaticket SaaS baseline on PostgreSQL", { timeout: 240_000 }, () => {
  it("makes one conversation per TicketTraking session, not per reused ticket row, each with its own messages", async () => {
    const src = await pgSource("saas.pg.sql");
    const target = await openTestDatabase();
    const source = await openSource(src.url);
    try {
      const x = await fillSaas(src);
      expect((await detectFlavour(source)).flavour).toBe("saas");
      const report = await runImport({ source, flavour: "saas", database: target, batchSize: 40 });
      expect(report.verification.complete).toBe(true);
      expect(report.entities.tickets).toMatchObject({ source: x.tickets, imported: x.tickets });
      expect(await count(target, "select count(*) as n from tickets")).toBe(x.sessions);
      expect(await count(target, "select count(*) as n from tickets where status = 'open'")).toBe(x.tickets);
      expect(await count(target, "select count(*) as n from tickets where status = 'closed'")).toBe(x.sessions - x.tickets);
      expect(report.entities.messages.imported).toBe(x.messages);
      // Each conversation holds exactly its session's two messages, all from that session.
      const spread = await target.query<{ n: string; sessions: string }>(
        `select count(*) as n, count(distinct substring(body from 'sessão (\\d)')) as sessions from messages group by ticket_id`,
      );
      expect(spread).toHaveLength(x.sessions);
      expect(spread.every((r) => r.n === "2" && r.sessions === "1")).toBe(true);
      // Ratings land on the conversation of the session they answered (the first, closed one).
      expect(report.entities.ratings).toMatchObject({ source: x.ratings + 1, imported: x.ratings, skipped: 1 });
      const rated = await target.query<{ status: string; rating: number; body: string }>(
        "select t.status, t.rating, min(m.body) as body from tickets t join messages m on m.ticket_id = t.id where t.rating is not null group by t.id",
      );
      expect(rated).toHaveLength(x.ratings);
      expect(rated.every((r) => r.status === "closed" && r.rating === 3 && r.body.startsWith("sessão 0"))).toBe(true);
      // Only the schedule still to come is scheduled here; the overdue one is not sent now.
      expect(report.entities.schedules).toMatchObject({ source: 3, imported: 1, skipped: 2 });
      const [scheduled] = await target.query<{ body: string; send_at: Date; status: string; whatsapp_id: number | null }>(
        "select body, send_at, status, whatsapp_id from scheduled_messages",
      );
      expect(scheduled).toMatchObject({ body: "Lembrete da consulta", status: "scheduled" });
      expect(scheduled?.send_at.toISOString()).toBe(x.futureSchedule.toISOString());
      expect(scheduled?.whatsapp_id).not.toBeNull();
      expect(report.skips.some((k) => k.entity === "schedules" && /not sent now/.test(k.reason))).toBe(true);
      const again = await runImport({ source, flavour: "saas", database: target, batchSize: 40 });
      expect(again.entities.tickets.already).toBe(x.tickets);
      expect(await count(target, "select count(*) as n from tickets")).toBe(x.sessions);
    } finally {
      await source.close();
      await src.drop();
      await target.drop();
    }
  });
});
