import type { ContactErased, Ticket } from "@zapdesk/core";
import { sql } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Person, query, rowsHolding, seedPerson, storedKeys } from "../../../test/contact-data.js";
import { customerNumber, customerWrites, eventually, listTickets, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { type S3rverRig, startS3rver } from "../../../test/s3/s3-rig.js";
import { connectAs, listen, ticketEvents } from "../../../test/sockets.js";

/**
 * Issue 22 §2: an erasure removes the person from every table and from the media storage (local
 * disk, S3), keeps a bystander whole, leaves counts without personal data in the audit trail, and
 * a customer who writes again afterwards starts from nothing.
 */
describe.each(["local", "s3"] as const)("erasing a contact (media on %s)", (kind) => {
  let s3: S3rverRig | undefined;
  let bucket = "";
  let t: TestApp;
  let admin: TestUser;
  let agent: TestUser;
  let url: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    if (kind === "s3") {
      s3 = await startS3rver();
      const options = await s3.bucket();
      bucket = options.bucket;
      t = await createTestApp({ config: { mediaStorage: { kind: "s3", ...options } } });
    } else {
      t = await createTestApp();
    }
    admin = await makeAdmin(t);
    agent = await makeUser(t);
    url = await listen(t);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await t?.close();
    await s3?.close();
  });

  const keys = () => storedKeys(t, s3 ? () => s3!.keys(bucket) : undefined);
  const erase = (user: TestUser, id: number, confirm: string) =>
    t.app.inject({ method: "POST", url: `/api/contacts/${id}/data/erase`, headers: user.auth, payload: { confirm } });

  it("removes the person everywhere, keeps the bystander, and records only counts", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const group = { id: `1203630${customerNumber()}`, name: `Grupo ${customerNumber()}` };
    const person: Person = await seedPerson(t, admin, connection, group);
    const bystander: Person = await seedPerson(t, admin, connection, group);
    // The person reacted to the bystander's group message.
    await query(
      t,
      sql`update messages set reactions = ${JSON.stringify([
        { by: person.number, emoji: "👍", fromMe: false, name: person.name },
        { by: bystander.number, emoji: "❤️", fromMe: false, name: "B" },
      ])}::jsonb where contact_id = ${bystander.contactId} and ticket_id in (select id from tickets where is_group)`,
    );
    const personNeedles = [person.number, person.word, person.lid];
    expect(Object.keys(await rowsHolding(t, personNeedles)).sort()).toEqual(
      expect.arrayContaining([
        "contacts",
        "contact_extra_info",
        "tickets",
        "messages",
        "scheduled_messages",
        "webhook_deliveries",
        "lid_mappings",
        "inbound_events",
      ]),
    );
    const before = await keys();
    for (const path of [...person.mediaPaths, ...bystander.mediaPaths]) expect(before).toContain(path);
    const bystanderBefore = await rowsHolding(t, [bystander.number, bystander.word]);

    const summary = await t.app.inject({
      method: "GET",
      url: `/api/contacts/${person.contactId}/data/summary`,
      headers: admin.auth,
    });
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json()).toEqual({
      tickets: 2,
      activeTickets: 1,
      messages: person.messageIds.length,
      notes: 1,
      groupMessages: 1,
      mediaFiles: 2,
      scheduledMessages: 1,
      ratings: 1,
      legalHold: false,
    });

    const watcher = (await connectAs(url, agent, sockets)) as Awaited<ReturnType<typeof connectAs>>;
    const res = await erase(admin, person.contactId, ` ${person.name.toUpperCase()} `);
    expect(res.statusCode, res.body).toBe(200);
    const { erased, filesNotRemoved } = res.json() as ContactErased;
    expect(filesNotRemoved).toBe(0);
    const { legalHold: _, ...counts } = summary.json();
    expect(erased).toMatchObject({
      ...counts,
      webhookDeliveries: 3,
      importMappings: 3,
      lidMappings: 1,
      inboundEvents: 1,
    });

    // Nothing left that names the person, in any table (the audit trail included).
    expect(await rowsHolding(t, personNeedles)).toEqual({});
    for (const [table, where] of [
      ["contacts", sql`id = ${person.contactId}`],
      ["tickets", sql`contact_id = ${person.contactId} or id in (${person.ticketId}, ${person.oldTicketId})`],
      ["messages", sql`id = any(${sql.param(person.messageIds)}::bigint[])`],
      ["note_mentions", sql`message_id = any(${sql.param(person.messageIds)}::bigint[])`],
      ["ticket_ratings", sql`contact_id = ${person.contactId}`],
      ["ticket_tags", sql`ticket_id = ${person.ticketId}`],
      ["contact_tags", sql`contact_id = ${person.contactId}`],
      ["import_map", sql`source = ${`test-${person.word}`}`],
    ] as const) {
      const [{ n }] = await query<{ n: string }>(t, sql`select count(*) as n from ${sql.identifier(table)} where ${where}`);
      expect(Number(n), table).toBe(0);
    }
    // The files are gone from the storage; the bystander's stay.
    const after = await keys();
    for (const path of person.mediaPaths) expect(after).not.toContain(path);
    for (const path of bystander.mediaPaths) expect(after).toContain(path);
    // Nothing left queued either: every file was removed after commit.
    expect(await query(t, sql`select path from media_deletions`)).toEqual([]);
    expect(await rowsHolding(t, [bystander.number, bystander.word])).toEqual(bystanderBefore);
    // The group keeps the bystander's message, without the person's reaction; its preview is not the person's.
    const [groupMessage] = await query<{ reactions: { by: string }[] }>(
      t,
      sql`select reactions from messages where contact_id = ${bystander.contactId} and ticket_id in (select id from tickets where is_group)`,
    );
    expect(groupMessage.reactions.map((r) => r.by)).toEqual([bystander.number]);

    // Search finds nothing of the person.
    expect((await listTickets(t, admin, { searchParam: person.word, showAll: "true" })).tickets).toEqual([]);
    // The agent's screen dropped the conversation at once.
    await eventually(() =>
      expect(ticketEvents(watcher, person.ticketId)).toContainEqual({ action: "delete", ticketId: person.ticketId }),
    );
    expect(watcher.received).toContainEqual({ event: "contact", payload: { action: "delete", contactId: person.contactId } });

    // The trail: who, when and counts; never the name, number or anything they wrote.
    const [entry] = await query<{ user_id: number; target_id: string; details: Record<string, number> }>(
      t,
      sql`select user_id, target_id, details from audit_log where action = 'contact.erased' and target_id = ${String(person.contactId)}`,
    );
    expect(entry).toMatchObject({ user_id: admin.id, target_id: String(person.contactId), details: erased });

    // The customer writes again (their phone sends the profile name it sends with every message): a
    // new contact, a new ticket, nothing of before.
    await customerWrites(t, admin, connection.id, { from: person.number, name: "Cliente", body: "oi de novo" });
    const fresh = await eventually(async () => {
      const found = (await listTickets(t, admin, { showAll: "true", status: "pending" })).tickets.find(
        (x: Ticket) => x.contact.number === person.number,
      );
      expect(found).toBeDefined();
      return found!;
    });
    expect(fresh.contact.id).not.toBe(person.contactId);
    expect(fresh.id).not.toBe(person.ticketId);
    const contact = await t.app.inject({ method: "GET", url: `/api/contacts/${fresh.contact.id}`, headers: admin.auth });
    expect(contact.json()).toMatchObject({ name: "Cliente", email: "", extraInfo: [], tags: [] });
    const [{ n }] = await query<{ n: string }>(t, sql`select count(*) as n from messages where contact_id = ${fresh.contact.id}`);
    expect(Number(n)).toBe(1);
    expect(await rowsHolding(t, [person.word, person.lid])).toEqual({});
  });

  it("refuses agents, a wrong confirmation, a group and a missing contact, and changes nothing", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const group = { id: `1203630${customerNumber()}`, name: `Grupo ${customerNumber()}` };
    const person = await seedPerson(t, admin, connection, group);
    const held = await rowsHolding(t, [person.number, person.word]);

    for (const path of ["summary", "export"]) {
      const res = await t.app.inject({
        method: "GET",
        url: `/api/contacts/${person.contactId}/data/${path}`,
        headers: agent.auth,
      });
      expect(res.statusCode, path).toBe(403);
      expect(res.json().error).toBe("ERR_NO_PERMISSION");
    }
    expect((await erase(agent, person.contactId, person.name)).json().error).toBe("ERR_NO_PERMISSION");
    const wrong = await erase(admin, person.contactId, "Maria");
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe("ERR_CONTACT_ERASE_CONFIRM");
    const [groupContact] = await query<{ id: number; name: string }>(
      t,
      sql`select id, name from contacts where number = ${group.id}`,
    );
    const refused = await erase(admin, groupContact.id, groupContact.name);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe("ERR_CONTACT_IS_GROUP");
    const missing = await erase(admin, 2147483000, "x");
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe("ERR_NO_CONTACT_FOUND");
    const invalid = await t.app.inject({
      method: "POST",
      url: `/api/contacts/${person.contactId}/data/erase`,
      headers: admin.auth,
      payload: { confirm: "" },
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error).toBe("ERR_VALIDATION");

    // A legal hold on one of the contact's tickets forbids it until released.
    await query(t, sql`insert into legal_holds (ticket_id, reason) values (${person.oldTicketId}, 'processo 123')`);
    const summary = await t.app.inject({
      method: "GET",
      url: `/api/contacts/${person.contactId}/data/summary`,
      headers: admin.auth,
    });
    expect(summary.json()).toMatchObject({ legalHold: true });
    const held409 = await erase(admin, person.contactId, person.name);
    expect(held409.statusCode).toBe(409);
    expect(held409.json().error).toBe("ERR_CONTACT_LEGAL_HOLD");
    await query(t, sql`delete from legal_holds where ticket_id = ${person.oldTicketId}`);

    expect(await rowsHolding(t, [person.number, person.word])).toEqual(held);
    for (const path of person.mediaPaths) expect(await keys()).toContain(path);
    // Confirming by the number (as typed, with its punctuation) works.
    const typed = `+${person.number.slice(0, 2)} (${person.number.slice(2, 4)}) ${person.number.slice(4)}`;
    expect((await erase(admin, person.contactId, typed)).statusCode).toBe(200);
  });
});
