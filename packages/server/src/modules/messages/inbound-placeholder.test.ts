import { Readable } from "node:stream";
import { PLACEHOLDER_PREVIEW } from "@zapdesk/core";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, eventually, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { connectAs, listen, type RecordingSocket } from "../../../test/sockets.js";
import type { InboundMessage } from "../../channels/channel.js";
import { contacts, messages, tickets } from "../../db/schema.js";

let t: TestApp;
let admin: TestUser;
let url: string;
const opened: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  url = await listen(t);
});
afterAll(async () => {
  for (const socket of opened) socket.disconnect();
  await t.close();
});

let serial = 0;
/** What a channel hands over for a message it could not decrypt, and for its real copy (same wid). */
function pair(chat: string, body: string, overrides: Partial<InboundMessage> = {}) {
  serial += 1;
  const base: InboundMessage = {
    wid: `3APLACEHOLDER${serial}`,
    chat,
    isGroup: false,
    sender: { number: chat, name: "Ana" },
    fromMe: false,
    timestamp: new Date(Date.UTC(2026, 5, 1, 12, 0, serial % 60)),
    type: "placeholder",
    body: "",
    raw: { key: { id: `3APLACEHOLDER${serial}` }, messageStubType: 1, messageStubParameters: ["Bad MAC"] },
  };
  return { stub: base, real: { ...base, type: "chat" as const, body, raw: { key: { id: base.wid } }, ...overrides } };
}

const rowOf = async (wid: string) => {
  const rows = await t.database.db.select().from(messages).where(eq(messages.wid, wid));
  expect(rows).toHaveLength(1);
  return rows[0];
};
const ticketOf = async (id: number) => (await t.database.db.select().from(tickets).where(eq(tickets.id, id)))[0];

type Published = { action: string; message?: { id: number; body: string; mediaType: string }; ticket?: { id: number } };
const eventsOf = (socket: RecordingSocket, event: string) =>
  socket.received.filter((r) => r.event === event).map((r) => r.payload as Published);

describe("a message that could not be decrypted", () => {
  it.each([
    ["the batch", (n: string) => n],
    ["the one-message path", (n: string) => `${n.slice(2)}@lid`],
  ])("through %s: a placeholder opens the ticket unread, and its real copy replaces it under the same id", async (_, chatOf) => {
    const connection = await makeSimulatorConnection(t, admin);
    const socket = await connectAs(url, admin, opened);
    const chat = chatOf(customerNumber());
    const { stub, real } = pair(chat, "quero um orçamento");

    await t.pipeline.onMessage(connection.id, stub);
    const placeholder = await rowOf(stub.wid);
    expect(placeholder).toMatchObject({ mediaType: "placeholder", body: "", read: false, fromMe: false });
    const [contact] = await t.database.db
      .select()
      .from(contacts)
      .where(eq(contacts.id, placeholder.contactId as number));
    expect(contact).toMatchObject({ number: chat, name: "Ana" });
    expect(await ticketOf(placeholder.ticketId)).toMatchObject({
      status: "pending",
      unreadMessages: 1,
      lastMessage: PLACEHOLDER_PREVIEW,
    });
    // A retry of the stub (WhatsApp sends one per failed attempt) changes nothing.
    await t.pipeline.onMessage(connection.id, { ...stub });

    await t.pipeline.onMessage(connection.id, real);
    const replaced = await rowOf(real.wid);
    expect(replaced).toMatchObject({ id: placeholder.id, mediaType: "chat", body: "quero um orçamento", read: false });
    expect(replaced.raw).toEqual(real.raw);
    expect(await ticketOf(placeholder.ticketId)).toMatchObject({ unreadMessages: 1, lastMessage: "quero um orçamento" });

    // Agents see the same message change, and the ticket's preview with it.
    await eventually(() => {
      const updates = eventsOf(socket, "appMessage").filter((p) => p.action === "update" && p.message?.id === placeholder.id);
      expect(updates.map((p) => p.message?.body)).toEqual(["quero um orçamento"]);
      const ticketUpdates = eventsOf(socket, "ticket").filter(
        (p) => p.action === "update" && p.ticket?.id === placeholder.ticketId,
      );
      expect(ticketUpdates.at(-1)).toMatchObject({ ticket: { lastMessage: "quero um orçamento", unreadMessages: 1 } });
    });
    // A later copy of either is a duplicate again.
    await t.pipeline.onMessage(connection.id, { ...real, body: "other" });
    await t.pipeline.onMessage(connection.id, { ...stub });
    expect(await rowOf(real.wid)).toMatchObject({ body: "quero um orçamento", mediaType: "chat" });
  });

  it("a batch holding the real copy among new messages stores them all and replaces the placeholder", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const chat = customerNumber();
    const { stub, real } = pair(chat, "the real one");
    await t.pipeline.onMessage(connection.id, stub);
    const { real: before } = pair(chat, "before");
    const { real: after } = pair(chat, "after");
    await Promise.all([before, real, after].map((m) => t.pipeline.onMessage(connection.id, m)));
    const rows = await t.database.db
      .select({ wid: messages.wid, body: messages.body, ticketId: messages.ticketId })
      .from(messages)
      .where(inArray(messages.wid, [stub.wid, before.wid, after.wid]))
      .orderBy(messages.id);
    expect(rows.map((r) => r.body)).toEqual(["the real one", "before", "after"]);
    expect(await ticketOf(rows[0].ticketId)).toMatchObject({ unreadMessages: 3, lastMessage: "after" });
  });

  it("read by an agent as a placeholder, the real copy is unread again; its media is downloaded", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const chat = customerNumber();
    const { stub, real } = pair(chat, "", {
      type: "image",
      media: { mimetype: "image/jpeg", size: 4, download: async () => Readable.from([Buffer.from([0xff, 0xd8, 0xff, 0xe0])]) },
    });
    await t.pipeline.onMessage(connection.id, stub);
    const placeholder = await rowOf(stub.wid);
    const res = await t.app.inject({ method: "GET", url: `/api/tickets/${placeholder.ticketId}`, headers: admin.auth });
    expect(res.statusCode).toBe(200);
    expect(await ticketOf(placeholder.ticketId)).toMatchObject({ unreadMessages: 0 });
    const listed = await t.app.inject({ method: "GET", url: `/api/messages/${placeholder.ticketId}`, headers: admin.auth });
    expect(listed.json().messages).toEqual([expect.objectContaining({ mediaType: "placeholder", body: "" })]);

    await t.pipeline.onMessage(connection.id, real);
    await t.pipeline.idle();
    const replaced = await rowOf(real.wid);
    expect(replaced).toMatchObject({ id: placeholder.id, mediaType: "image", read: false, mediaError: null });
    expect(replaced.mediaPath).toBeTruthy();
    expect(await ticketOf(placeholder.ticketId)).toMatchObject({ unreadMessages: 1, lastMessage: "image" });
    const [{ n }] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(messages)
      .where(and(eq(messages.ticketId, placeholder.ticketId), eq(messages.fromMe, false)));
    expect(n).toBe(1);
  });
});
