import type { Message, Schedule } from "@zapdesk/core";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contacts, messages, tickets } from "../src/db/schema.js";
import { type CloudConnection, customerPhone, makeCloudConnection, messagesOf, startCloudApp } from "./cloud-rig.js";
import { eventually } from "./conversation.js";
import { makeAdmin, type TestUser } from "./factories.js";
import { payloads } from "./graph-fake/index.js";
import { manualClock } from "./harness.js";

const { text, bsuidOf, userChangedNumber } = payloads;
const MINUTE = 60_000;

/**
 * Issue 18 §3 item 9 on the Cloud API: a customer who changed number (Meta's `user_changed_number`
 * system message, no `contacts[]`) keeps their contact, history and open ticket, and nothing is
 * sent to the old number again: not what was already waiting in the outbox, not a scheduled message.
 */
describe("Cloud API: a customer changes number", () => {
  const clock = manualClock();
  let app: Awaited<ReturnType<typeof startCloudApp>>;
  let admin: TestUser;
  let cloud: CloudConnection;

  beforeAll(async () => {
    app = await startCloudApp({ clock });
    admin = await makeAdmin(app.t);
    cloud = await makeCloudConnection(app, admin);
  });
  afterAll(async () => app?.close());

  const db = () => app.t.database.db;
  const call = (method: "POST" | "PUT", url: string, payload: Record<string, unknown>) =>
    app.t.app.inject({ method, url, headers: admin.auth, payload });
  const sentTo = (number: string) =>
    app.fake
      .sentMessages(cloud.phoneNumberId)
      .filter((b) => b.to === number && b.type === "text")
      .map((b) => (b.text as { body: string }).body);

  it("moves the contact with its ticket; queued and scheduled messages go to the new number; the new number's messages join the ticket", async () => {
    const old = customerPhone();
    const next = customerPhone();
    await cloud.meta.deliver(cloud.meta.message(text({ from: old, body: "oi" }), "Marta"));
    const { ticket, contact } = await eventually(async () => {
      const [row] = await db()
        .select({ ticket: tickets, contact: contacts })
        .from(tickets)
        .innerJoin(contacts, eq(contacts.id, tickets.contactId))
        .where(and(eq(contacts.number, old), eq(tickets.whatsappId, cloud.connection.id)));
      expect(row).toBeDefined();
      return row;
    });
    expect((await call("PUT", `/api/tickets/${ticket.id}`, { status: "open", userId: admin.id })).statusCode).toBe(200);

    // The agent answers while the outbox is held, and schedules a follow-up.
    await app.t.outbox.stop();
    const queued = await call("POST", `/api/messages/${ticket.id}`, { body: "resposta na fila" });
    expect(queued.statusCode, queued.body).toBe(201);
    const scheduled = await call("POST", "/api/schedules", {
      ticketId: ticket.id,
      body: "lembrete agendado",
      sendAt: new Date(clock.now().getTime() + 5 * MINUTE).toISOString(),
    });
    expect(scheduled.statusCode, scheduled.body).toBe(201);

    const [answer] = await cloud.meta.deliver(cloud.meta.system(userChangedNumber({ from: old, to: next, name: "Marta" })));
    expect(answer.status).toBe(200);
    await eventually(async () => {
      const [row] = await db().select().from(contacts).where(eq(contacts.id, contact.id));
      expect(row).toMatchObject({ number: next, bsuid: bsuidOf(next), name: "Marta" });
    });

    app.t.outbox.start();
    await eventually(() => expect(sentTo(next)).toEqual(["resposta na fila"]));
    clock.advance(6 * MINUTE);
    await app.t.services.schedules.sweep();
    await app.t.outbox.drain();
    await eventually(() => expect(sentTo(next)).toEqual(["resposta na fila", "lembrete agendado"]));
    const [handed] = await db()
      .select({ ticketId: messages.ticketId })
      .from(messages)
      .where(eq(messages.body, "lembrete agendado"));
    expect(handed.ticketId).toBe(ticket.id);
    expect((scheduled.json() as Schedule).ticketId).toBe(ticket.id);

    await cloud.meta.deliver(cloud.meta.message(text({ from: next, body: "agora por aqui" }), "Marta"));
    await eventually(async () => {
      const bodies = (await messagesOf(app.t, admin, ticket.id)).map((m: Message) => m.body);
      expect(bodies).toContain("agora por aqui");
      expect(bodies).toContain(`User Marta changed from ${old} to ${next}`);
    });
    expect(
      await db()
        .select()
        .from(contacts)
        .where(inArray(contacts.number, [old, next])),
    ).toMatchObject([{ id: contact.id, number: next }]);
    expect((await db().select().from(tickets).where(eq(tickets.contactId, contact.id))).map((t) => t.id)).toEqual([ticket.id]);
    expect(sentTo(old)).toEqual([]);
  });

  it("a message from the new number that overtook the notice is folded into the customer's contact and ticket", async () => {
    const old = customerPhone();
    const next = customerPhone();
    await cloud.meta.deliver(cloud.meta.message(text({ from: old, body: "antes" }), "Nina"));
    await cloud.meta.deliver(cloud.meta.message(text({ from: next, body: "do número novo" }), "Nina"));
    const ticketOf = (number: string) =>
      eventually(async () => {
        const [row] = await db()
          .select({ ticket: tickets, contact: contacts })
          .from(tickets)
          .innerJoin(contacts, eq(contacts.id, tickets.contactId))
          .where(eq(contacts.number, number));
        expect(row).toBeDefined();
        return row;
      });
    const first = await ticketOf(old);
    const second = await ticketOf(next);
    await cloud.meta.deliver(cloud.meta.system(userChangedNumber({ from: old, to: next, name: "Nina" })));
    await eventually(async () => {
      const rows = await db()
        .select()
        .from(contacts)
        .where(inArray(contacts.number, [old, next]));
      expect(rows).toMatchObject([{ id: first.contact.id, number: next }]);
    });
    const [kept] = await db().select().from(tickets).where(eq(tickets.contactId, first.contact.id));
    expect(kept.id).toBe(first.ticket.id);
    expect(await db().select().from(tickets).where(eq(tickets.id, second.ticket.id))).toEqual([]);
    const bodies = (await messagesOf(app.t, admin, kept.id)).map((m) => m.body);
    expect(bodies).toEqual(expect.arrayContaining(["antes", "do número novo"]));
  });
});
