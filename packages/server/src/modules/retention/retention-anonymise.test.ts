import { ANONYMISED_CONTACT_NAME, type RetentionCounts, type Ticket } from "@zapdesk/core";
import { sql } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Person, query, rowsHolding, seedPerson, storedKeys } from "../../../test/contact-data.js";
import { customerNumber, customerWrites, eventually, listTickets, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { connectAs, listen } from "../../../test/sockets.js";

/**
 * Issue 22 §1: a policy that anonymises the contact once nothing else refers to it. The person's
 * conversations go first; the contact waits for its scheduled message and for what it wrote in a
 * group; then nothing that names the person is left, the tickets and ratings stay, the sweep
 * announces one event per ticket, and a customer who writes again is a new contact.
 */
describe("retention that anonymises the contact (issue 22 §1)", () => {
  let t: TestApp;
  let admin: TestUser;
  let url: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await makeAdmin(t);
    url = await listen(t);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await t?.close();
  });

  const inject = (method: "PUT" | "POST", path: string, payload?: object) =>
    t.app.inject({ method, url: path, headers: admin.auth, payload });
  const run = async () => {
    const res = await inject("POST", "/api/retention/run");
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as RetentionCounts;
  };
  /** Closed `days` ago (the close itself stamps closed_at; then it is moved back). */
  const closeDaysAgo = async (where: ReturnType<typeof sql>, days: number) => {
    await query(t, sql`update tickets set status = 'closed', queue_id = null where ${where}`);
    await query(t, sql`update tickets set closed_at = now() - make_interval(days => ${days}) where ${where}`);
  };
  const contactRow = async (id: number) =>
    (await query<Record<string, unknown>>(t, sql`select * from contacts where id = ${id}`))[0]!;

  it("waits for what refers to the person, then anonymises it once, keeping the tickets and ratings", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const group = { id: `1203630${customerNumber()}`, name: `Grupo ${customerNumber()}` };
    const person: Person = await seedPerson(t, admin, connection, group);
    const young: Person = await seedPerson(t, admin, connection, group);
    await query(
      t,
      sql`insert into contact_changes (contact_id, user_name, old_number, new_number)
                       values (${person.contactId}, 'Admin', ${`55${person.number}`}, ${person.number})`,
    );
    await closeDaysAgo(sql`contact_id = ${person.contactId}`, 40);
    await closeDaysAgo(sql`contact_id = ${young.contactId}`, 5);
    const policy = { queueId: null, enabled: true, days: 30, remove: "anonymise" };
    expect((await inject("PUT", "/api/retention/policies", policy)).statusCode).toBe(200);

    // The scheduled message waiting to be sent and the group message refer to the person: not yet.
    expect((await inject("POST", "/api/retention/preview", policy)).json()).toMatchObject({ tickets: 2, contacts: 0 });
    const watcher = await connectAs(url, admin, sockets);
    expect(await run()).toEqual({ tickets: 2, messages: person.messageIds.length - 1, files: 1, contacts: 0 });
    expect((await contactRow(person.contactId)).number).toBe(person.number);
    // One event per ticket (not one per message): an open conversation refetches, the lists drop the preview.
    await eventually(() => {
      const removed = watcher.received.filter((r) => r.event === "messagesRemoved").map((r) => r.payload);
      expect(removed).toEqual(
        expect.arrayContaining([
          { ticketId: person.ticketId, removed: "messages" },
          { ticketId: person.oldTicketId, removed: "messages" },
        ]),
      );
      expect(removed).toHaveLength(2);
    });

    // The group's conversation goes under the same policy, and the schedule is cancelled: now it may.
    await closeDaysAgo(sql`contact_id in (select id from contacts where number = ${group.id})`, 40);
    await query(t, sql`update scheduled_messages set status = 'cancelled' where contact_id = ${person.contactId}`);
    const [{ n: groupMessages }] = await query<{ n: number }>(
      t,
      sql`select count(*)::int as n from messages where ticket_id in (select id from tickets where is_group)`,
    );
    const counts = await run();
    expect(counts).toEqual({ tickets: 1, messages: groupMessages, files: 1, contacts: 1 });
    await eventually(() =>
      expect(watcher.received).toContainEqual({
        event: "contact",
        payload: expect.objectContaining({
          action: "update",
          contact: expect.objectContaining({ id: person.contactId, name: ANONYMISED_CONTACT_NAME }),
        }),
      }),
    );

    // Nothing names the person any more, in any table; the storage holds none of its files.
    expect(await rowsHolding(t, [person.number, person.word, person.lid, person.name])).toEqual({});
    const keys = await storedKeys(t);
    for (const path of person.mediaPaths) expect(keys).not.toContain(path);
    expect(await query(t, sql`select path from media_deletions`)).toEqual([]);
    const contact = await contactRow(person.contactId);
    expect(contact).toMatchObject({
      name: ANONYMISED_CONTACT_NAME,
      number: `anonymised:${person.contactId}`,
      email: "",
      lid: null,
      bsuid: null,
    });
    expect(contact.anonymised_at).not.toBeNull();
    for (const table of ["contact_extra_info", "contact_changes", "contact_tags", "scheduled_messages"]) {
      const [{ n }] = await query<{ n: number }>(
        t,
        sql`select count(*)::int as n from ${sql.identifier(table)} where contact_id = ${person.contactId}`,
      );
      expect(n, table).toBe(0);
    }
    // What the reports count stays: both tickets, closed, and the rating.
    const kept = await query<{ id: number; status: string }>(
      t,
      sql`select id, status from tickets where contact_id = ${person.contactId} order by id`,
    );
    expect(kept).toEqual([
      { id: person.ticketId, status: "closed" },
      { id: person.oldTicketId, status: "closed" },
    ]);
    const [{ n: ratings }] = await query<{ n: number }>(
      t,
      sql`select count(*)::int as n from ticket_ratings where contact_id = ${person.contactId}`,
    );
    expect(ratings).toBe(1);
    // The young one is untouched.
    expect((await contactRow(young.contactId)).number).toBe(young.number);

    // One entry per run in the trail, with the count; a further run finds nothing.
    const trail = await query<{ details: RetentionCounts }>(
      t,
      sql`select details from audit_log where action = 'retention.run' order by id`,
    );
    expect(trail.map((e) => e.details.contacts)).toEqual([0, 1]);
    expect(await run()).toEqual({ tickets: 0, messages: 0, files: 0, contacts: 0 });
    expect((await inject("POST", "/api/retention/preview", policy)).json()).toMatchObject({ contacts: 0 });

    // The customer writes again: a new contact, with nothing of the old one.
    await customerWrites(t, admin, connection.id, { from: person.number, name: "De novo", body: "oi de novo" });
    const fresh = await eventually(async () => {
      const found = (await listTickets(t, admin, { showAll: "true", status: "pending" })).tickets.find(
        (x: Ticket) => x.contact.number === person.number,
      );
      expect(found).toBeDefined();
      return found!;
    });
    expect(fresh.contact.id).not.toBe(person.contactId);
    expect(fresh.contact.name).toBe("De novo");
  });

  it("keeps a contact whose other ticket another policy keeps, or that is under a legal hold", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const group = { id: `1203630${customerNumber()}`, name: `Grupo ${customerNumber()}` };
    const held: Person = await seedPerson(t, admin, connection, group);
    const kept: Person = await seedPerson(t, admin, connection, group);
    const queue = await inject("POST", "/api/queue", { name: `Fila ${customerNumber()}`, color: "#123456" });
    const queueId = queue.json().id as number;
    for (const p of [held, kept]) {
      await closeDaysAgo(sql`contact_id = ${p.contactId}`, 40);
      await query(t, sql`update scheduled_messages set status = 'cancelled' where contact_id = ${p.contactId}`);
    }
    await closeDaysAgo(sql`contact_id in (select id from contacts where number = ${group.id})`, 40);
    // The kept one's older ticket is in a queue whose policy removes messages only.
    await query(t, sql`update tickets set queue_id = ${queueId} where id = ${kept.oldTicketId}`);
    await inject("PUT", "/api/retention/policies", { queueId, enabled: true, days: 30, remove: "messages" });
    const policy = { queueId: null, enabled: true, days: 30, remove: "anonymise" };
    await inject("PUT", "/api/retention/policies", policy);
    expect((await inject("POST", "/api/legal-holds", { ticketId: held.oldTicketId })).statusCode).toBe(201);

    expect((await inject("POST", "/api/retention/preview", policy)).json()).toMatchObject({ contacts: 0 });
    expect((await run()).contacts).toBe(0);
    expect((await contactRow(held.contactId)).number).toBe(held.number);
    expect((await contactRow(kept.contactId)).number).toBe(kept.number);
    // The held ticket keeps its messages; the rest went.
    const [{ n: heldMessages }] = await query<{ n: number }>(
      t,
      sql`select count(*)::int as n from messages where ticket_id = ${held.oldTicketId}`,
    );
    expect(heldMessages).toBe(1);
    const [{ n: keptMessages }] = await query<{ n: number }>(
      t,
      sql`select count(*)::int as n from messages where ticket_id in (${kept.ticketId}, ${kept.oldTicketId})`,
    );
    expect(keptMessages).toBe(0);
  });
});
