import { type ConnectionRestriction, OUTBOX_NOTICES } from "@zapdesk/core";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { insertConnection, silentLogger } from "../../test/channel-support.js";
import { manualClock, openTestDatabase } from "../../test/harness.js";
import type { ChannelSession, OutboundMessage, SentMessage } from "../channels/channel.js";
import { contacts, messages, outbox, tickets, whatsapps } from "../db/schema.js";
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
    ticketId: ticket!.id,
    send: async (body: string, options: { automatic?: boolean } = {}) =>
      (await database.db.transaction((tx) => enqueueOutbound(tx, { ticket: ticket!, body, userId: null, ...options }))).id,
  };
}

const row = async (id: number) => (await database.db.select().from(messages).where(eq(messages.id, id)))[0];
const queued = async (id: number) => (await database.db.select().from(outbox).where(eq(outbox.messageId, id)))[0];

function start(
  session: (id: number) => ChannelSession,
  connected: number[],
  sendGuardMs?: number,
  clock?: ReturnType<typeof manualClock>,
) {
  worker = createOutboxWorker({
    db: database.db,
    clock,
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

describe("while the number may not open chats", () => {
  const clock = manualClock(new Date(Date.now() + 60 * 60_000));
  const restricted = (): ConnectionRestriction => ({
    timeLock: {
      enforcementType: "DEFAULT",
      endsAt: new Date(clock.now().getTime() + 6 * 3600_000).toISOString(),
      since: clock.now().toISOString(),
    },
    newChatCap: null,
  });

  it("an automatic message into a chat the customer has not written in is held, the agent's answer after it goes, and it goes once the customer writes", async () => {
    const a = await insertConnection(database.db, "simulator");
    await database.db.update(whatsapps).set({ restriction: restricted() }).where(eq(whatsapps.id, a));
    const quiet = await chat(a);
    const channel = channels(() => "sent");
    const automatic = await quiet.send("our weekly offer", { automatic: true });
    const agentLater = await quiet.send("agent typing by hand");
    start(channel.session, [a], undefined, clock);

    await vi.waitFor(async () => expect((await queued(automatic))?.held).toBe(true));
    expect(await row(automatic)).toMatchObject({ ack: 0, errorCode: OUTBOX_NOTICES.held });
    // Not an automatic message: the agent decides, and it is not stuck behind the held one.
    await vi.waitFor(async () => expect((await row(agentLater)).ack).toBe(1));
    expect(channel.bodies()).toEqual(["agent typing by hand"]);

    // The customer writes: at the next look (a minute later) it is an answer, and goes.
    await database.db.update(tickets).set({ lastInboundAt: clock.now() }).where(eq(tickets.id, quiet.ticketId));
    clock.advance(61_000);
    await vi.waitFor(async () => expect(await row(automatic)).toMatchObject({ ack: 1, errorCode: null }));
    expect(channel.bodies()).toEqual(["agent typing by hand", "our weekly offer"]);
  });

  it("a customer who wrote within the last 24 hours gets automatic messages; a group never counts as a new chat", async () => {
    const a = await insertConnection(database.db, "simulator");
    await database.db.update(whatsapps).set({ restriction: restricted() }).where(eq(whatsapps.id, a));
    const recent = await chat(a);
    await database.db
      .update(tickets)
      .set({ lastInboundAt: new Date(clock.now().getTime() - 23 * 3600_000) })
      .where(eq(tickets.id, recent.ticketId));
    const stale = await chat(a);
    await database.db
      .update(tickets)
      .set({ lastInboundAt: new Date(clock.now().getTime() - 25 * 3600_000) })
      .where(eq(tickets.id, stale.ticketId));
    const group = await chat(a);
    await database.db.update(tickets).set({ isGroup: true }).where(eq(tickets.id, group.ticketId));
    const channel = channels(() => "sent");
    const toRecent = await recent.send("csat question", { automatic: true });
    const toStale = await stale.send("re-opening an old chat", { automatic: true });
    const toGroup = await group.send("group reminder", { automatic: true });
    start(channel.session, [a], undefined, clock);
    await vi.waitFor(async () => {
      expect((await row(toRecent)).ack).toBe(1);
      expect((await row(toGroup)).ack).toBe(1);
      expect((await queued(toStale))?.held).toBe(true);
    });
    expect(channel.bodies()).not.toContain("re-opening an old chat");

    // WhatsApp lifts the restriction: what was held goes at once, without waiting for its next look.
    await database.db.update(whatsapps).set({ restriction: null }).where(eq(whatsapps.id, a));
    await worker?.releaseHolds(a);
    await vi.waitFor(async () => expect(await row(toStale)).toMatchObject({ ack: 1, errorCode: null }));
  });
});
