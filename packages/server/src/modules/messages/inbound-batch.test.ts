import { and, asc, eq, inArray, sql } from "drizzle-orm";
import pg from "pg";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { customerNumber, eventually, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { connectAs, listen, type RecordingSocket } from "../../../test/sockets.js";
import type { InboundMessage } from "../../channels/channel.js";
import { contacts, inboundEvents, messages, tickets } from "../../db/schema.js";
import { createInboundLog } from "../connections/inbound-log.repo.js";
import { NotBatchable, storeBatch } from "./inbound-batch.js";

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
function customerMessage(from: string, body: string, overrides: Partial<InboundMessage> = {}): InboundMessage {
  serial += 1;
  return {
    wid: `BATCH-${from}-${serial}`,
    chat: from,
    isGroup: false,
    sender: { number: from, name: `Customer ${from.slice(-4)}` },
    fromMe: false,
    timestamp: new Date(Date.UTC(2026, 0, 1, 12, 0, serial % 60)),
    type: "chat",
    body,
    ...overrides,
  };
}

/** Stored rows of some wids, oldest first, with the transaction that wrote each (`xmin`). */
async function storedRows(wids: string[]) {
  return t.database.db
    .select({
      wid: messages.wid,
      body: messages.body,
      ticketId: messages.ticketId,
      contactId: messages.contactId,
      tx: sql<string>`${messages}.xmin::text`,
    })
    .from(messages)
    .where(inArray(messages.wid, wids))
    .orderBy(asc(messages.id));
}

describe("batched inbound", () => {
  it("writes a burst of 50 messages from 5 contacts in one transaction: 5 tickets, each chat in order, events from the rows", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const socket: RecordingSocket = await connectAs(url, admin, opened);
    const numbers = Array.from({ length: 5 }, () => customerNumber());
    const burst = Array.from({ length: 50 }, (_, i) => customerMessage(numbers[i % 5], `msg ${Math.floor(i / 5)}`));
    await Promise.all(burst.map((m) => t.pipeline.onMessage(connection.id, m)));

    const rows = await storedRows(burst.map((m) => m.wid));
    expect(rows).toHaveLength(50);
    // One transaction for the whole burst (one message per transaction before batching).
    expect(new Set(rows.map((r) => r.tx)).size).toBe(1);
    const ticketRows = await t.database.db
      .select()
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(inArray(contacts.number, numbers));
    expect(ticketRows).toHaveLength(5);
    for (const { tickets: ticket, contacts: contact } of ticketRows) {
      const chat = rows.filter((r) => r.ticketId === ticket.id);
      expect(chat.map((r) => r.body)).toEqual(Array.from({ length: 10 }, (_, k) => `msg ${k}`));
      expect(chat.every((r) => r.contactId === contact.id)).toBe(true);
      expect(ticket).toMatchObject({ unreadMessages: 10, lastMessage: "msg 9", status: "pending" });
    }

    type Created = { action: string; message: { id: number; body: string; ticketId: number }; ticket: { id: number } };
    const created = await eventually(() => {
      const events = socket.received
        .filter((r) => r.event === "appMessage")
        .map((r) => r.payload as Created)
        .filter((p) => p.action === "create" && ticketRows.some((x) => x.tickets.id === p.message.ticketId));
      expect(events).toHaveLength(50);
      return events;
    });
    for (const { tickets: ticket, contacts: contact } of ticketRows) {
      const own = created.filter((e) => e.message.ticketId === ticket.id);
      expect(own.map((e) => e.message.body)).toEqual(Array.from({ length: 10 }, (_, k) => `msg ${k}`));
      expect(own[9].ticket).toMatchObject({ id: ticket.id, unreadMessages: 10, contact: { number: contact.number } });
    }
  });

  it("stores a channel's payload (raw) without reading it back: the events come from the rows, the payload from the channel", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const socket: RecordingSocket = await connectAs(url, admin, opened);
    const from = customerNumber();
    // A Baileys image's payload carries its thumbnail: kilobytes a message.
    const raw = {
      key: { remoteJid: `${from}@s.whatsapp.net`, id: "RAW1" },
      message: { imageMessage: { jpegThumbnail: "A".repeat(6000) } },
    };
    const message = customerMessage(from, "a photo", { raw });
    const original = pg.Client.prototype.query;
    const returned: string[][] = [];
    const spy = vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const config = args[0] as {
        name?: string;
        pipelined?: string[];
        callback?: (error: Error | null, result: pg.QueryResult | pg.QueryResult[]) => void;
      };
      // The insert goes alone, or in one round trip with the tickets' update (db/pipeline.ts) once
      // both are parsed on the pooled connection the message gets: its result is then one of several.
      const at = config?.pipelined?.indexOf("inbound_batch_messages") ?? -1;
      const callback = config?.callback;
      if (at >= 0 && callback) {
        config.callback = (error, result) => {
          const results = Array.isArray(result) ? result : [result];
          if (!error && results[at]) returned.push(results[at].fields.map((f) => f.name));
          callback(error, result);
        };
      }
      const result = Reflect.apply(original, this, args);
      if (config?.name === "inbound_batch_messages") {
        // A failed statement fails the test below (nothing returned), not as an unhandled rejection.
        (result as Promise<pg.QueryResult>).then(
          (r) => returned.push(r.fields.map((f) => f.name)),
          () => {},
        );
      }
      return result;
    } as typeof original);
    try {
      await t.pipeline.onMessage(connection.id, message);
    } finally {
      spy.mockRestore();
    }
    expect(returned).toHaveLength(1);
    expect(returned[0]).toEqual(expect.arrayContaining(["id", "wid", "ticket_id", "body"]));
    expect(returned[0]).not.toContain("raw");
    const [stored] = await t.database.db.select({ raw: messages.raw }).from(messages).where(eq(messages.wid, message.wid));
    expect(stored.raw).toEqual(raw);
    await eventually(() =>
      expect(
        socket.received.some(
          (r) => r.event === "appMessage" && (r.payload as { message: { body: string } }).message.body === "a photo",
        ),
      ).toBe(true),
    );
  });

  it("stores a message repeated inside a batch, or across batches, once", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const from = customerNumber();
    const first = [customerMessage(from, "one"), customerMessage(from, "two")];
    await Promise.all(first.map((m) => t.pipeline.onMessage(connection.id, m)));
    const again = customerMessage(from, "three");
    const second = [first[1], again, { ...again }, first[0], customerMessage(from, "four")];
    await Promise.all(second.map((m) => t.pipeline.onMessage(connection.id, m)));

    const rows = await storedRows([...first, ...second].map((m) => m.wid));
    expect(rows.map((r) => r.body)).toEqual(["one", "two", "three", "four"]);
    const [ticket] = await t.database.db.select().from(tickets).where(eq(tickets.id, rows[0].ticketId));
    expect(ticket).toMatchObject({ unreadMessages: 4, lastMessage: "four" });
  });

  it("refuses a connection that is gone, leaving no contact and no ticket (the tickets statement rode with the contacts')", async () => {
    // The contacts' upsert finds no connection; the tickets statement, sent with it (one round trip),
    // opens no ticket for it, and the batch rolls back to go one message at a time.
    const from = customerNumber();
    const gone = 2_000_000_000;
    // Twice: the second time both statements are parsed on the connection and go together.
    for (let i = 0; i < 2; i++) {
      const { media: _media, ...item } = customerMessage(from, "oi");
      await expect(storeBatch(t.database.db, { now: () => new Date() }, gone, [item], 3600)).rejects.toThrow(
        new NotBatchable("no connection", true),
      );
    }
    expect(await t.database.db.select().from(contacts).where(eq(contacts.number, from))).toEqual([]);
    expect(await t.database.db.select().from(tickets).where(eq(tickets.whatsappId, gone))).toEqual([]);
  });

  it("a bad row fails only itself: the rest of its batch is stored once, and only stored events are marked done", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const log = createInboundLog(t.database.db, connection.id);
    const [a, b] = [customerNumber(), customerNumber()];
    const burst = Array.from({ length: 10 }, (_, i) =>
      // PostgreSQL cannot store this timestamp: the statement fails in the database, mid-batch.
      i === 5 ? customerMessage(a, "bad", { timestamp: new Date(-8.64e15) }) : customerMessage(i % 2 ? b : a, `ok ${i}`),
    );
    const ids = await Promise.all(burst.map((m) => log.record("message", m.wid, { wid: m.wid })));

    // A channel's loop: log first, acknowledge only once the pipeline has stored the message.
    const deliver = (messagesToDeliver: InboundMessage[]) =>
      Promise.allSettled(
        messagesToDeliver.map(async (m) => {
          const id = ids[burst.indexOf(m)] as number;
          try {
            await t.pipeline.onMessage(connection.id, m);
          } catch (error) {
            await log.failed(id, error);
            throw error;
          }
          expect(await storedRows([m.wid])).toHaveLength(1);
          await log.done(id);
        }),
      );
    const outcome = await deliver(burst);
    expect(outcome.map((o) => o.status)).toEqual(burst.map((m) => (m.body === "bad" ? "rejected" : "fulfilled")));

    // After the failed batch its chats are stored side by side, each chat in order.
    for (const chat of [a, b]) {
      const good = burst.filter((m) => m.body !== "bad" && m.chat === chat);
      expect((await storedRows(good.map((m) => m.wid))).map((r) => r.body)).toEqual(good.map((m) => m.body));
    }
    const logged = await t.database.db
      .select({ eventKey: inboundEvents.eventKey, status: inboundEvents.status, attempts: inboundEvents.attempts })
      .from(inboundEvents)
      .where(and(eq(inboundEvents.whatsappId, connection.id), inArray(inboundEvents.id, ids as number[])));
    expect(logged.filter((r) => r.status === "done")).toHaveLength(9);
    expect(logged.find((r) => r.status !== "done")).toMatchObject({ eventKey: burst[5].wid, status: "pending", attempts: 1 });

    // The pending event is replayed (the log keeps it); replaying the whole burst again writes nothing twice.
    const pending = await log.pending();
    expect(pending.map((p) => p.id)).toEqual([ids[5]]);
    await deliver(burst);
    expect(await storedRows(burst.map((m) => m.wid))).toHaveLength(9);
  });
});
