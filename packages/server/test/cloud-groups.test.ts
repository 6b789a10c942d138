import { randomBytes } from "node:crypto";
import type { Message } from "@zapdesk/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contacts, messages, tickets } from "../src/db/schema.js";
import { type CloudConnection, customerPhone, makeCloudConnection, messagesOf, startCloudApp } from "./cloud-rig.js";
import { eventually } from "./conversation.js";
import { makeAdmin, type TestUser } from "./factories.js";
import { payloads } from "./graph-fake/index.js";

const { text } = payloads;

/**
 * Issue 18 §3 item 10: the Cloud Groups API. A message with `group_id` belongs to the group's
 * ticket (never to a private chat with the member who wrote it); replies go to the group
 * (`recipient_type: "group"`, `to` = the group id); a group status (`recipient_type: "group"`,
 * `recipient_participant_id`) moves the group message's ack.
 */
describe("Cloud API groups", () => {
  let app: Awaited<ReturnType<typeof startCloudApp>>;
  let admin: TestUser;
  let cloud: CloudConnection;

  beforeAll(async () => {
    app = await startCloudApp();
    admin = await makeAdmin(app.t);
    cloud = await makeCloudConnection(app, admin);
  });
  afterAll(async () => app?.close());

  const db = () => app.t.database.db;
  /** A Groups API group id as Meta shows them (base64 of the group's own ids). */
  const groupId = () =>
    Buffer.from(`capi_group:${cloud.phoneNumberId}:120363${randomBytes(6).readUIntBE(0, 6)}`).toString("base64");

  it("a member's message is the group's ticket; the answer goes to the group; the group's status acks it", async () => {
    const group = groupId();
    app.fake.addGroup(group);
    const member = customerPhone();
    await cloud.meta.deliver(cloud.meta.message(text({ from: member, groupId: group, body: "bom dia, grupo" }), "Paulo"));

    const { ticket, contact } = await eventually(async () => {
      const [row] = await db()
        .select({ ticket: tickets, contact: contacts })
        .from(tickets)
        .innerJoin(contacts, eq(contacts.id, tickets.contactId))
        .where(eq(contacts.number, group));
      expect(row).toBeDefined();
      return row;
    });
    expect(contact.isGroup).toBe(true);
    expect(ticket.isGroup).toBe(true);
    const [author] = await db().select().from(contacts).where(eq(contacts.number, member));
    expect(author).toMatchObject({ name: "Paulo", isGroup: false });
    expect(await db().select().from(tickets).where(eq(tickets.contactId, author.id))).toEqual([]);
    const [inbound] = await messagesOf(app.t, admin, ticket.id);
    expect(inbound).toMatchObject({ body: "bom dia, grupo", fromMe: false });
    expect(inbound.contact?.id).toBe(author.id);

    const accepted = await app.t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket.id}`,
      headers: admin.auth,
      payload: { status: "open", userId: admin.id },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const res = await app.t.app.inject({
      method: "POST",
      url: `/api/messages/${ticket.id}`,
      headers: admin.auth,
      payload: { body: "Bom dia a todos!" },
    });
    expect(res.statusCode, res.body).toBe(201);
    const sent = await eventually(async () => {
      const [row] = await db()
        .select()
        .from(messages)
        .where(eq(messages.id, (res.json() as Message).id));
      expect(row.wid).toMatch(/^wamid\./);
      return row;
    });
    const body = app.fake.sentMessages(cloud.phoneNumberId).at(-1);
    expect(body).toMatchObject({ recipient_type: "group", to: group, type: "text", text: { body: "Bom dia a todos!" } });
    expect(app.fake.sentMessages(cloud.phoneNumberId).some((b) => b.to === member)).toBe(false);

    const status = app.fake.statusOf(sent.wid as string, "read", { participant: member });
    expect(status).toMatchObject({ recipientId: group, group: { participant: member } });
    await cloud.meta.deliver(cloud.meta.statuses([status]));
    await eventually(async () => {
      const [row] = await db().select().from(messages).where(eq(messages.id, sent.id));
      expect(row.ack).toBe(3);
    });
  });
});
