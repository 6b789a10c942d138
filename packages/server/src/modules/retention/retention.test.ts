import { access } from "node:fs/promises";
import { join } from "node:path";
import { MEDIA_STATE, type RetentionCounts } from "@zapdesk/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerSendsFile } from "../../../test/backup-rig.js";
import { customerNumber, customerWrites, eventually, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, openTestDatabase, type TestApp } from "../../../test/harness.js";
import { type S3rverRig, startS3rver } from "../../../test/s3/s3-rig.js";
import { rowsOf } from "../../backup/snapshot.js";
import type { Db } from "../../db/client.js";

interface Conversation {
  ticketId: number;
  contactId: number;
  word: string;
  path: string;
}

/** A customer writes a word and sends a file: one ticket, two messages, one stored file. */
async function conversation(t: TestApp, admin: TestUser, connectionId: number): Promise<Conversation> {
  const from = customerNumber();
  const word = `palavra${Math.random().toString(36).slice(2, 10)}`;
  await customerWrites(t, admin, connectionId, { from, body: `olá ${word}` });
  await customerSendsFile(t, admin, connectionId, from);
  return eventually(async () => {
    const [row] = await rowsOf<{ ticketId: number; contactId: number; path: string | null }>(
      t.database.db,
      `select t.id as "ticketId", t.contact_id as "contactId", max(m.media_path) as path
       from tickets t join contacts c on c.id = t.contact_id join messages m on m.ticket_id = t.id
       where c.number = '${from}' group by t.id`,
    );
    expect(row?.path).toBeTruthy();
    return { ticketId: row!.ticketId, contactId: row!.contactId, word, path: row!.path! };
  });
}

/** Closed `daysAgo` days ago (the close itself stamps closed_at; then it is moved back). */
async function closedDaysAgo(db: Db, c: Conversation, daysAgo: number, queueId: number | null = null) {
  await rowsOf(db, `update tickets set status = 'closed', queue_id = ${queueId ?? "null"} where id = ${c.ticketId}`);
  await rowsOf(db, `update tickets set closed_at = now() - interval '${daysAgo} days' where id = ${c.ticketId}`);
}

const messagesOf = (db: Db, c: Conversation) =>
  rowsOf<{ path: string | null; error: string | null; body: string }>(
    db,
    `select media_path as path, media_error as error, body from messages where ticket_id = ${c.ticketId} order by id`,
  );

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

describe("retention (issue 22 §1)", () => {
  let t: TestApp;
  let admin: TestUser;
  let connectionId: number;
  const inject = (method: "GET" | "PUT" | "POST" | "DELETE", url: string, payload?: object, user = admin) =>
    t.app.inject({ method, url, headers: user.auth, payload });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeAdmin(t);
    connectionId = (await makeSimulatorConnection(t, admin, { isDefault: true })).id;
  });
  afterAll(() => t.close());

  it("is for admins only, and validates policies and holds with coded errors", async () => {
    const agent = await makeUser(t);
    for (const [method, url] of [
      ["GET", "/api/retention"],
      ["POST", "/api/retention/run"],
      ["GET", "/api/legal-holds"],
    ] as const) {
      const res = await inject(method, url, undefined, agent);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe("ERR_NO_PERMISSION");
    }
    const bad = await inject("PUT", "/api/retention/policies", { queueId: null, enabled: true, days: 0, remove: "media" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe("ERR_VALIDATION");
    const noQueue = await inject("PUT", "/api/retention/policies", { queueId: 999999, enabled: true, days: 5, remove: "media" });
    expect(noQueue.statusCode).toBe(404);
    expect(noQueue.json().error).toBe("ERR_NO_QUEUE_FOUND");
    const both = await inject("POST", "/api/legal-holds", { contactId: 1, ticketId: 1 });
    expect(both.json().error).toBe("ERR_VALIDATION");
    const gone = await inject("DELETE", "/api/legal-holds/999999");
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe("ERR_NO_LEGAL_HOLD_FOUND");
  });

  it("removes what each policy says after N days, spares legal holds and young or open tickets, once, and says so in the trail", async () => {
    const db = t.database.db;
    const keepMediaQueue = await makeQueue(t);
    const foreverQueue = await makeQueue(t);
    const old = await conversation(t, admin, connectionId);
    const young = await conversation(t, admin, connectionId);
    const held = await conversation(t, admin, connectionId);
    const heldTicket = await conversation(t, admin, connectionId);
    const mediaOnly = await conversation(t, admin, connectionId);
    const forever = await conversation(t, admin, connectionId);
    const open = await conversation(t, admin, connectionId);
    await closedDaysAgo(db, old, 40);
    await closedDaysAgo(db, young, 10);
    await closedDaysAgo(db, held, 40);
    await closedDaysAgo(db, heldTicket, 40);
    await closedDaysAgo(db, mediaOnly, 40, keepMediaQueue.id);
    await closedDaysAgo(db, forever, 400, foreverQueue.id);
    await rowsOf(db, `update tickets set created_at = now() - interval '90 days' where id = ${open.ticketId}`);

    expect((await inject("POST", "/api/legal-holds", { contactId: held.contactId, reason: "lawsuit 42" })).statusCode).toBe(201);
    expect((await inject("POST", "/api/legal-holds", { ticketId: heldTicket.ticketId })).statusCode).toBe(201);
    expect((await inject("POST", "/api/legal-holds", { ticketId: heldTicket.ticketId })).json().error).toBe("ERR_ALREADY_EXISTS");

    // Before saving: what the default policy would remove today (the old ticket only: the others
    // are young, held, open, or governed by their queue's own policy once it exists).
    await inject("PUT", "/api/retention/policies", { queueId: keepMediaQueue.id, enabled: true, days: 30, remove: "media" });
    await inject("PUT", "/api/retention/policies", { queueId: foreverQueue.id, enabled: false, days: 1, remove: "messages" });
    const policy = { queueId: null, enabled: true, days: 30, remove: "messages" };
    const preview = await inject("POST", "/api/retention/preview", policy);
    expect(preview.json()).toEqual({ tickets: 1, messages: 2, files: 1, contacts: 0 });
    expect((await inject("PUT", "/api/retention/policies", policy)).statusCode).toBe(200);
    expect(
      (await inject("POST", "/api/retention/preview", { ...policy, queueId: keepMediaQueue.id, remove: "media" })).json(),
    ).toEqual({
      tickets: 1,
      messages: 0,
      files: 1,
      contacts: 0,
    });

    const media = (p: string) => join(t.config.dataDir, "media", p);
    for (const c of [old, young, mediaOnly]) expect(await exists(media(c.path))).toBe(true);

    const run = await inject("POST", "/api/retention/run");
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json()).toEqual({ tickets: 2, messages: 2, files: 2, contacts: 0 });

    // Messages policy: rows, file and preview gone; search no longer finds the words.
    expect(await messagesOf(db, old)).toEqual([]);
    expect(await exists(media(old.path))).toBe(false);
    const [ticket] = await rowsOf<{ last: string; status: string }>(
      db,
      `select last_message as last, status from tickets where id = ${old.ticketId}`,
    );
    expect(ticket).toEqual({ last: "", status: "closed" });
    const search = await inject("GET", `/api/tickets?searchParam=${old.word}&showAll=true&status=closed`);
    expect(search.json().tickets).toEqual([]);
    // Media policy: the messages stay, the file goes, and the message says why.
    const kept = await messagesOf(db, mediaOnly);
    expect(kept).toHaveLength(2);
    expect(kept.map((m) => m.path)).toEqual([null, null]);
    expect(kept.map((m) => m.error)).toContain(MEDIA_STATE.removedByRetention);
    expect(await exists(media(mediaOnly.path))).toBe(false);
    // Young, held (contact and ticket), open, and a queue that keeps forever: untouched.
    for (const c of [young, held, heldTicket, open, forever]) {
      const rows = await messagesOf(db, c);
      expect(rows.map((m) => m.path).filter(Boolean)).toEqual([c.path]);
      expect(await exists(media(c.path))).toBe(true);
    }
    const [{ n: queued }] = await rowsOf<{ n: number }>(db, "select count(*)::int as n from media_deletions");
    expect(queued).toBe(0);

    // One entry in the trail, with the counts and who ran it; a second run finds nothing and adds none.
    const trail = async () =>
      (await inject("GET", "/api/audit?action=retention.run")).json().entries as { details: RetentionCounts; userId: number }[];
    expect((await trail()).map((e) => [e.details, e.userId])).toEqual([
      [{ tickets: 2, messages: 2, files: 2, contacts: 0 }, admin.id],
    ]);
    expect((await inject("POST", "/api/retention/run")).json()).toEqual({ tickets: 0, messages: 0, files: 0, contacts: 0 });
    expect(await trail()).toHaveLength(1);
    expect((await inject("GET", "/api/retention")).json().lastRun).toMatchObject({
      tickets: 2,
      messages: 2,
      files: 2,
      contacts: 0,
    });

    // Releasing the hold lets the next run take the contact's old ticket; both changes are audited.
    const [hold] = (await inject("GET", `/api/legal-holds?contactId=${held.contactId}`)).json().holds;
    expect(hold).toMatchObject({ reason: "lawsuit 42", createdBy: admin.name });
    expect((await inject("DELETE", `/api/legal-holds/${hold.id}`)).statusCode).toBe(200);
    expect((await inject("POST", "/api/retention/run")).json()).toEqual({ tickets: 1, messages: 2, files: 1, contacts: 0 });
    const actions = (await inject("GET", "/api/audit")).json().entries.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["legalHold.placed", "legalHold.released", "retention.policyChanged"]));

    // A queue reset goes back to the default (the media queue's ticket now has its messages removed).
    expect((await inject("DELETE", `/api/retention/policies/${keepMediaQueue.id}`)).statusCode).toBe(200);
    expect((await inject("POST", "/api/retention/run")).json()).toEqual({ tickets: 1, messages: 2, files: 0, contacts: 0 });
  });
});

describe("retention with two processes and S3 (issue 22 §1)", () => {
  let s3: S3rverRig;
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let a: TestApp;
  let b: TestApp;
  let bucket: string;

  beforeAll(async () => {
    s3 = await startS3rver();
    const options = await s3.bucket();
    bucket = options.bucket;
    database = await openTestDatabase();
    const mediaStorage = { kind: "s3" as const, ...options };
    a = await createTestApp({ database, config: { mediaStorage } });
    const { jwtSecret, jwtRefreshSecret, encryptionKey } = a.config;
    b = await createTestApp({ database, config: { mediaStorage, jwtSecret, jwtRefreshSecret, encryptionKey } });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.close();
    await database?.drop();
    await s3?.close();
  });

  it("sweeps every due ticket and anonymises every due contact exactly once while both run at the same time, and removes the objects from the bucket", async () => {
    const admin = await makeAdmin(a);
    const connectionId = (await makeSimulatorConnection(a, admin, { isDefault: true })).id;
    const due: Conversation[] = [];
    for (let i = 0; i < 4; i++) due.push(await conversation(a, admin, connectionId));
    for (const c of due) await closedDaysAgo(database.db, c, 3);
    expect(await s3.keys(bucket)).toEqual(expect.arrayContaining(due.map((c) => c.path)));
    await a.app.inject({
      method: "PUT",
      url: "/api/retention/policies",
      headers: admin.auth,
      payload: { queueId: null, enabled: true, days: 1, remove: "anonymise" },
    });

    const runs = await Promise.all(
      [a, b].map((t) => t.retention.run().catch((error: Error) => ({ tickets: 0, messages: 0, files: 0, contacts: 0, error }))),
    );
    // Whatever the interleaving: every due ticket once, in all the runs together; nothing left queued.
    const after = await a.retention.run();
    const total = (key: "tickets" | "contacts") => [...runs, after].reduce((sum, r) => sum + r[key], 0);
    expect(total("tickets")).toBe(4);
    // Each contact anonymised once too (their only ticket was due under a policy that anonymises).
    expect(total("contacts")).toBe(4);
    const anonymised = await rowsOf<{ number: string }>(
      database.db,
      `select number from contacts where id in (${due.map((c) => c.contactId).join(",")}) and anonymised_at is not null`,
    );
    expect(anonymised.map((c) => c.number).sort()).toEqual(due.map((c) => `anonymised:${c.contactId}`).sort());
    expect(await rowsOf(database.db, "select id from messages")).toEqual([]);
    expect(await s3.keys(bucket)).toEqual([]);
    const entries = await rowsOf<{ tickets: number; contacts: number }>(
      database.db,
      "select (details->>'tickets')::int as tickets, (details->>'contacts')::int as contacts from audit_log where action = 'retention.run'",
    );
    expect(entries.reduce((sum, e) => sum + e.tickets, 0)).toBe(4);
    expect(entries.reduce((sum, e) => sum + e.contacts, 0)).toBe(4);
  });
});
