import { OUTBOX_NOTICES } from "@zapdesk/core";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openTestDatabase } from "../../test/harness.js";
import type { ChannelSession, OutboundMessage, SentMessage } from "../channels/channel.js";
import { insertConnection, silentLogger } from "../channels/test-support.js";
import { contacts, messages, outbox } from "../db/schema.js";
import { enqueueOutbound } from "../modules/messages/outbound.js";
import { insertTicketIfNoneActive } from "../modules/tickets/tickets.repo.js";
import { createOutboxWorker, type OutboxWorker } from "./outbox-worker.js";

/**
 * The real worker and store on a real database, with channels whose sends the test answers or
 * leaves hanging (a Baileys socket gone silent, a Graph call that never returns).
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let worker: OutboxWorker | undefined;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});
afterAll(async () => {
  await database?.close();
  await database?.drop();
});

/** A channel per connection: each send is recorded and waits for the test unless `answer` says otherwise. */
function channels(answer: (message: OutboundMessage) => "sent" | "hang") {
  const calls: { whatsappId: number; message: OutboundMessage; at: number; resolve(sent: SentMessage): void }[] = [];
  const session = (whatsappId: number) =>
    ({
      send: (message: OutboundMessage) =>
        new Promise<SentMessage>((resolve) => {
          calls.push({ whatsappId, message, at: Date.now(), resolve });
          if (answer(message) === "sent") resolve({ wid: message.id ?? "x", timestamp: new Date(), ack: 1 });
        }),
    }) as unknown as ChannelSession;
  return { calls, session, bodies: () => calls.map((c) => c.message.body) };
}

let sequence = 0;
async function chat(whatsappId: number) {
  sequence += 1;
  const [contact] = await database.db
    .insert(contacts)
    .values({ name: `C${sequence}`, number: `55119${process.pid % 1000}${String(sequence).padStart(5, "0")}` })
    .returning();
  const ticket = await insertTicketIfNoneActive(database.db, {
    contactId: contact.id,
    whatsappId,
    status: "open",
    isGroup: false,
  });
  return {
    send: async (body: string) =>
      (await database.db.transaction((tx) => enqueueOutbound(tx, { ticket: ticket!, body, userId: null }))).id,
  };
}

const row = async (id: number) => (await database.db.select().from(messages).where(eq(messages.id, id)))[0];
const queued = async (id: number) => (await database.db.select().from(outbox).where(eq(outbox.messageId, id)))[0];

function start(session: (id: number) => ChannelSession, connected: number[], sendGuardMs?: number) {
  worker = createOutboxWorker({
    db: database.db,
    storage: { open: async () => Promise.reject(new Error("no media in these tests")) },
    session,
    connectedIds: async () => connected,
    logger: silentLogger(),
    pollMs: 50,
    sendGuardMs,
  });
  worker.start();
  return worker;
}

describe("the outbox delivers chats side by side", () => {
  it("a send that hangs delays neither another connection nor another chat of its own connection; only its chat waits", async () => {
    const a = await insertConnection(database.db, "simulator");
    const b = await insertConnection(database.db, "simulator");
    const stuck = await chat(a);
    const neighbour = await chat(a);
    const elsewhere = await chat(b);
    const channel = channels((m) => (m.body === "stuck" ? "hang" : "sent"));
    const first = await stuck.send("stuck");
    const behind = await stuck.send("after the stuck one");
    const same = await neighbour.send("same connection, other chat");
    const other = await elsewhere.send("other connection");
    start(channel.session, [a, b]);

    await vi.waitFor(async () => {
      expect((await row(same)).ack).toBe(1);
      expect((await row(other)).ack).toBe(1);
    });
    // The chat's order holds: its next message waits for the stuck one, which keeps its claim meanwhile.
    expect(channel.bodies()).not.toContain("after the stuck one");
    expect((await row(behind)).ack).toBe(0);
    expect((await queued(first))?.lockedUntil).not.toBeNull();

    // The stuck send answers at last: the chat goes on.
    channel.calls.find((c) => c.message.body === "stuck")?.resolve({ wid: "late", timestamp: new Date(), ack: 1 });
    await vi.waitFor(async () => expect((await row(behind)).ack).toBe(1));
    expect(channel.bodies().filter((b) => b === "stuck")).toHaveLength(1);
  });

  it("a send that never answers ends unconfirmed after the guard: not resent, its claim gone, its chat goes on", async () => {
    const a = await insertConnection(database.db, "simulator");
    const silent = await chat(a);
    const channel = channels((m) => (m.body === "into the void" ? "hang" : "sent"));
    const lost = await silent.send("into the void");
    const next = await silent.send("next in the chat");
    start(channel.session, [a], 800);

    await vi.waitFor(async () => expect(await queued(lost)).toBeUndefined(), { timeout: 5000 });
    expect(await row(lost)).toMatchObject({
      ack: 0,
      errorCode: OUTBOX_NOTICES.outcomeUnknown,
      errorTitle: expect.stringMatching(/may have arrived/),
    });
    await vi.waitFor(async () => expect((await row(next)).ack).toBe(1));
    // Polls went by since: the unconfirmed message was never handed to the channel again.
    await worker?.drain();
    expect(channel.bodies().filter((b) => b === "into the void")).toHaveLength(1);

    // Its answer comes after all: the late success settles it.
    const stored = await row(lost);
    channel.calls
      .find((c) => c.message.body === "into the void")
      ?.resolve({ wid: stored.wid as string, timestamp: new Date(), ack: 1 });
    await vi.waitFor(async () => expect(await row(lost)).toMatchObject({ ack: 1, errorCode: null, errorTitle: null }));
  });

  it("bounds what one connection has under way: a connection whose sends all hang keeps at most four", async () => {
    const a = await insertConnection(database.db, "simulator");
    const b = await insertConnection(database.db, "simulator");
    const channel = channels((m) => (m.body.startsWith("hung") ? "hang" : "sent"));
    for (let i = 0; i < 6; i++) await (await chat(a)).send(`hung ${i}`);
    const fine = await (await chat(b)).send("fine");
    start(channel.session, [a, b]);
    await vi.waitFor(async () => expect((await row(fine)).ack).toBe(1));
    await vi.waitFor(() => expect(channel.calls.filter((c) => c.whatsappId === a)).toHaveLength(4));
    // Several polls later, still four: the other two chats wait for a slot of their connection.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(channel.calls.filter((c) => c.whatsappId === a)).toHaveLength(4);
    for (const call of channel.calls) call.resolve({ wid: call.message.id ?? "", timestamp: new Date(), ack: 1 });
  });
});
