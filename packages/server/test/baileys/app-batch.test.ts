import type { WAMessage } from "@whiskeysockets/baileys";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOG_KINDS } from "../../src/channels/baileys/baileys-events.js";
import { toRaw } from "../../src/channels/baileys/baileys-translate.js";
import { contacts, inboundEvents, messages, tickets } from "../../src/db/schema.js";
import { createInboundLog } from "../../src/modules/connections/inbound-log.repo.js";
import { insertConnection } from "../channel-support.js";
import { customerNumber, eventually } from "../conversation.js";
import { type BaileysApp, makeBaileysConnection, startBaileysApp } from "./app-rig.js";
import type { FakeSocket } from "./fake-socket.js";
import { incoming } from "./inbound-helpers.js";

/**
 * Baileys delivers arrays in `messages.upsert` (offline messages flushed after a reconnect,
 * bursts): the adapter logs them in one statement and hands them to the pipeline together, so
 * they are written as one batch, and acknowledged (log rows done) only after it committed.
 */
let app: BaileysApp;
let socket: FakeSocket;
let whatsappId: number;

beforeAll(async () => {
  app = await startBaileysApp();
  const made = await makeBaileysConnection(app);
  socket = made.socket;
  whatsappId = made.connection.id;
});
afterAll(async () => app?.close());

const jidOf = (number: string) => `${number}@s.whatsapp.net`;
const textOf = (m: WAMessage) => m.message?.conversation ?? "";

/** The stored rows of these messages, in insertion order, with the transaction that wrote each. */
async function storedRows(list: WAMessage[], connection = whatsappId) {
  return app.t.database.db
    .select({
      wid: messages.wid,
      body: messages.body,
      ticketId: messages.ticketId,
      tx: sql<string>`${messages}.xmin::text`,
    })
    .from(messages)
    .where(
      and(
        eq(messages.whatsappId, connection),
        inArray(
          messages.wid,
          list.map((m) => m.key.id as string),
        ),
      ),
    )
    .orderBy(asc(messages.id));
}

/** The log rows of these messages, in log order, with the transaction that last wrote each. */
async function logRows(list: WAMessage[], connection = whatsappId) {
  return app.t.database.db
    .select({
      key: inboundEvents.eventKey,
      status: inboundEvents.status,
      attempts: inboundEvents.attempts,
      tx: sql<string>`${inboundEvents}.xmin::text`,
    })
    .from(inboundEvents)
    .where(
      and(
        eq(inboundEvents.whatsappId, connection),
        eq(inboundEvents.kind, LOG_KINDS.message),
        inArray(
          inboundEvents.eventKey,
          list.map((m) => `msg:${m.key.id}`),
        ),
      ),
    )
    .orderBy(asc(inboundEvents.id));
}

/** Wait until every message's log row is settled (done, or failed once). */
async function settled(list: WAMessage[], connection = whatsappId) {
  return eventually(async () => {
    const rows = await logRows(list, connection);
    expect(rows).toHaveLength(list.length);
    for (const row of rows) expect(row.status === "done" || row.attempts > 0, row.key ?? "").toBe(true);
    return rows;
  });
}

/** `perChat` messages from each of `numbers`, interleaved as a burst arrives. */
function burst(numbers: string[], perChat: number, label: string) {
  return Array.from({ length: numbers.length * perChat }, (_, i) =>
    incoming({ conversation: `${label} ${Math.floor(i / numbers.length)}` }, { remoteJid: jidOf(numbers[i % numbers.length]) }),
  );
}

async function ticketsOf(numbers: string[]) {
  return app.t.database.db
    .select({ id: tickets.id, number: contacts.number, unread: tickets.unreadMessages, last: tickets.lastMessage })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(and(eq(tickets.whatsappId, whatsappId), inArray(contacts.number, numbers)));
}

describe("a Baileys upsert of many messages", () => {
  it("is written in one transaction, each chat in order, and its log rows are marked done after the commit", async () => {
    const numbers = Array.from({ length: 4 }, () => customerNumber());
    const sent = burst(numbers, 5, "burst");
    socket.ev.emit("messages.upsert", { messages: sent, type: "notify" });

    const log = await settled(sent);
    expect(log.map((r) => r.key)).toEqual(sent.map((m) => `msg:${m.key.id}`));
    expect(log.every((r) => r.status === "done")).toBe(true);
    const rows = await storedRows(sent);
    expect(rows.map((r) => r.wid)).toEqual(sent.map((m) => m.key.id));
    // One transaction for the 20 messages (one per message before).
    expect(new Set(rows.map((r) => r.tx)).size).toBe(1);
    // The rows were marked done in one later transaction: after the batch committed.
    expect(new Set(log.map((r) => r.tx)).size).toBe(1);
    expect(BigInt(log[0].tx)).toBeGreaterThan(BigInt(rows[0].tx));

    const made = await ticketsOf(numbers);
    expect(made).toHaveLength(4);
    for (const ticket of made) {
      const chat = rows.filter((r) => r.ticketId === ticket.id).map((r) => r.body);
      expect(chat).toEqual(Array.from({ length: 5 }, (_, k) => `burst ${k}`));
      expect(ticket).toMatchObject({ unread: 5, last: "burst 4" });
    }
  });

  it("upserts emitted before the first is processed join its batch", async () => {
    const numbers = Array.from({ length: 3 }, () => customerNumber());
    const upserts = [burst(numbers, 2, "first"), burst(numbers, 2, "second"), burst(numbers, 2, "third")];
    for (const list of upserts) socket.ev.emit("messages.upsert", { messages: list, type: "notify" });
    const all = upserts.flat();

    await settled(all);
    const rows = await storedRows(all);
    expect(rows.map((r) => r.wid)).toEqual(all.map((m) => m.key.id));
    expect(new Set(rows.map((r) => r.tx)).size).toBe(1);
  });

  it("a bad message in the middle fails only itself: the others are stored once, in order, and marked done", async () => {
    const numbers = Array.from({ length: 3 }, () => customerNumber());
    const sent = burst(numbers, 3, "ok");
    // PostgreSQL cannot store this timestamp: the batch's insert fails in the database.
    sent[4] = incoming({ conversation: "bad" }, { remoteJid: jidOf(numbers[1]) }, { messageTimestamp: -8.64e12 });
    socket.ev.emit("messages.upsert", { messages: sent, type: "notify" });

    const log = await settled(sent);
    const bad = `msg:${sent[4].key.id}`;
    expect(log.find((r) => r.key === bad)).toMatchObject({ status: "pending", attempts: 1 });
    expect(log.filter((r) => r.key !== bad).every((r) => r.status === "done")).toBe(true);

    const good = sent.filter((_, i) => i !== 4);
    const rows = await storedRows(sent);
    expect(rows.map((r) => r.wid).sort()).toEqual(good.map((m) => m.key.id).sort());
    const made = await ticketsOf(numbers);
    for (const ticket of made) {
      const number = ticket.number;
      const expected = good.filter((m) => m.key.remoteJid === jidOf(number)).map(textOf);
      expect(rows.filter((r) => r.ticketId === ticket.id).map((r) => r.body)).toEqual(expected);
    }
  });

  it("edits, reactions and our own messages in the upsert take their paths in order", async () => {
    const [a, b] = [customerNumber(), customerNumber()];
    const first = incoming({ conversation: "typo" }, { remoteJid: jidOf(a) });
    const other = incoming({ conversation: "from b" }, { remoteJid: jidOf(b) });
    const edit = incoming(
      {
        protocolMessage: {
          type: 14, // MESSAGE_EDIT
          key: { id: first.key.id, remoteJid: jidOf(a), fromMe: false },
          editedMessage: { conversation: "fixed" },
        },
      },
      { remoteJid: jidOf(a) },
    );
    const reaction = incoming(
      { reactionMessage: { key: { id: other.key.id, remoteJid: jidOf(b), fromMe: false }, text: "👍" } },
      { remoteJid: jidOf(b) },
    );
    const mine = incoming({ conversation: "from the phone" }, { remoteJid: jidOf(a), fromMe: true });
    const after = incoming({ conversation: "after" }, { remoteJid: jidOf(a) });
    const sent = [first, other, edit, reaction, mine, after];
    socket.ev.emit("messages.upsert", { messages: sent, type: "notify" });

    const log = await settled(sent);
    expect(log.every((r) => r.status === "done")).toBe(true);
    const rows = await app.t.database.db
      .select({ wid: messages.wid, body: messages.body, fromMe: messages.fromMe, reactions: messages.reactions })
      .from(messages)
      .where(
        and(
          eq(messages.whatsappId, whatsappId),
          inArray(
            messages.wid,
            [first, other, mine, after].map((m) => m.key.id as string),
          ),
        ),
      )
      .orderBy(asc(messages.id));
    expect(rows.map((r) => [r.body, r.fromMe])).toEqual([
      ["fixed", false],
      ["from b", false],
      ["from the phone", true],
      ["after", false],
    ]);
    expect(JSON.stringify(rows[1].reactions)).toContain("👍");
  });

  it("messages a previous run logged and never stored are replayed together at the next start: one transaction, in order", async () => {
    const connection = await insertConnection(app.t.database.db, "baileys");
    const numbers = Array.from({ length: 3 }, () => customerNumber());
    const logged = burst(numbers, 3, "logged");
    await createInboundLog(app.t.database.db, connection).recordAll(
      LOG_KINDS.message,
      logged.map((m) => ({ key: `msg:${m.key.id}`, payload: toRaw(m) })),
    );
    const before = app.sockets.length;
    await app.t.sessions.start(connection);

    const log = await settled(logged, connection);
    expect(log.every((r) => r.status === "done")).toBe(true);
    const rows = await storedRows(logged, connection);
    expect(rows.map((r) => r.wid)).toEqual(logged.map((m) => m.key.id));
    expect(new Set(rows.map((r) => r.tx)).size).toBe(1);
    expect(BigInt(log[0].tx)).toBeGreaterThan(BigInt(rows[0].tx));
    await eventually(() => expect(app.sockets.length).toBeGreaterThan(before));
    await app.t.sessions.remove(connection);
  });
});
