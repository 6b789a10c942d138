import { hiddenWhileBotHolds, type Ticket } from "@zapdesk/core";
import { eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BOT_WAIT,
  customerNumber,
  customerWrites,
  eventually,
  makeSimulatorConnection,
  phoneReceived,
  ticketRowOf,
} from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { connectAs, flush, listen, type RecordingSocket } from "../../../test/sockets.js";
import { type Step, startTypebotFake, type TypebotFake } from "../../../test/typebot-fake/server.js";
import { botSessions } from "../../db/schema.js";

// Issue 23 §4: while a queue's bot holds a ticket, its live events still reach the queue's agents
// (an agent who opened it from a search keeps its chat live), but they say the bot holds it, so an
// agent's waiting list does not take it in (core's rule, the one the list API follows); once the
// bot lets go, the next event brings it into the waiting list (or to the agent, or closes it).
let t: TestApp;
let typebot: TypebotFake;
let admin: TestUser;
let url: string;
const opened: Socket[] = [];
const API_TOKEN = "tb-live-token";

beforeAll(async () => {
  typebot = await startTypebotFake({ apiToken: API_TOKEN });
  t = await createTestApp({ botTimeoutMs: 1000 });
  admin = await makeAdmin(t);
  url = await listen(t);
});
afterAll(async () => {
  for (const socket of opened) socket.disconnect();
  await t.close();
  await typebot.close();
});

let flows = 0;
/** A queue with a Typebot flow, its connection, one agent of the queue and the agent's and admin's sockets. */
async function botQueue(steps: (agentId: number) => Step[]) {
  flows += 1;
  const publicId = `live-${flows}`;
  const queue = await makeQueue(t);
  const agent = await makeUser(t, { queueIds: [queue.id] });
  typebot.publish(publicId, steps(agent.id));
  const res = await t.app.inject({
    method: "PUT",
    url: `/api/queue/${queue.id}/bot`,
    headers: admin.auth,
    payload: { kind: "typebot", baseUrl: typebot.url, publicId, apiToken: API_TOKEN },
  });
  expect(res.statusCode, res.body).toBe(200);
  const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
  const sockets = { agent: await connectAs(url, agent, opened), admin: await connectAs(url, admin, opened) };
  return { queueId: queue.id, whatsappId: connection.id, agent, sockets };
}

/** The tickets the `ticket` updates and `appMessage` creations a socket received carried, for one ticket. */
const ticketsSeen = (socket: RecordingSocket, ticketId: number): Ticket[] =>
  socket.received
    .filter((r) => r.event === "ticket" || r.event === "appMessage")
    .map((r) => (r.payload as { ticket?: Ticket }).ticket)
    .filter((ticket): ticket is Ticket => ticket?.id === ticketId);

/** Whether the ticket an event carried belongs in the viewer's waiting list, as far as a bot decides. */
const waitingFor = (ticket: Ticket, viewer: { admin: boolean }) =>
  ticket.status === "pending" && !hiddenWhileBotHolds(ticket, viewer, { status: "pending" });

const AGENT = { admin: false };
const ADMIN = { admin: true };
const held = async (ticketId: number) =>
  (await t.database.db.select().from(botSessions).where(eq(botSessions.ticketId, ticketId))).length > 0;

/** The customer writes, the bot answers; returns the held ticket once everything published reached the sockets. */
async function heldConversation(setup: Awaited<ReturnType<typeof botQueue>>, from: string) {
  const { whatsappId, sockets } = setup;
  await customerWrites(t, admin, whatsappId, { from, body: "oi" });
  await eventually(async () => expect((await phoneReceived(t, admin, whatsappId, from)).length).toBeGreaterThan(0), BOT_WAIT);
  const ticket = (await ticketRowOf(t, from))!;
  expect(await held(ticket.id)).toBe(true);
  await flush(t, admin, [sockets.agent, sockets.admin]);
  return ticket;
}

const GREETING: Step = { bubbles: [{ type: "text", text: "Olá! Qual o pedido?" }], input: { type: "text input" } };

describe("live events of a ticket a bot holds", () => {
  it("reach the queue's agent without putting it in their waiting list, until the bot hands it to the queue", async () => {
    const setup = await botQueue(() => [GREETING, { bubbles: [{ type: "text", text: "Obrigado!" }] }]);
    const { sockets, queueId } = setup;
    const from = customerNumber();
    const ticket = await heldConversation(setup, from);

    // The customer's message and the bot's answer reached the agent (an open chat stays live) ...
    const agentSaw = ticketsSeen(sockets.agent, ticket.id);
    expect(agentSaw.length).toBeGreaterThan(0);
    const agentMessages = sockets.agent.received.filter(
      (r) => r.event === "appMessage" && (r.payload as { ticket?: Ticket }).ticket?.id === ticket.id,
    );
    expect(agentMessages.length).toBeGreaterThanOrEqual(2);
    // ... each saying the bot holds it: none makes it a member of the agent's waiting list.
    for (const seen of agentSaw) expect(seen).toMatchObject({ status: "pending", botHeld: true });
    expect(agentSaw.filter((seen) => waitingFor(seen, AGENT))).toEqual([]);
    // Admins see it waiting (they may take over).
    expect(ticketsSeen(sockets.admin, ticket.id).every((seen) => waitingFor(seen, ADMIN))).toBe(true);

    // The end of the flow hands it to the queue: the agent's next event makes it an ordinary waiting ticket.
    await customerWrites(t, admin, setup.whatsappId, { from, body: "A-12" });
    await eventually(async () => expect(await held(ticket.id)).toBe(false), BOT_WAIT);
    await flush(t, admin, [sockets.agent]);
    const last = ticketsSeen(sockets.agent, ticket.id).at(-1)!;
    expect(last).toMatchObject({ status: "pending", queueId, userId: null, botHeld: false });
    expect(waitingFor(last, AGENT)).toBe(true);
  });

  it("tell the agent the flow handed it to them, and the queue's agents that the flow closed it", async () => {
    const toAgent = await botQueue((agentId) => [
      GREETING,
      { bubbles: [{ type: "text", text: "Já te passo" }], set: { zapdesk_handover: `agent:${agentId}` } },
    ]);
    const from = customerNumber();
    const ticket = await heldConversation(toAgent, from);
    await customerWrites(t, admin, toAgent.whatsappId, { from, body: "A-12" });
    await eventually(
      async () => expect(await ticketRowOf(t, from)).toMatchObject({ status: "open", userId: toAgent.agent.id }),
      BOT_WAIT,
    );
    await flush(t, admin, [toAgent.sockets.agent]);
    expect(ticketsSeen(toAgent.sockets.agent, ticket.id).at(-1)).toMatchObject({
      status: "open",
      userId: toAgent.agent.id,
      botHeld: false,
    });

    const toClose = await botQueue(() => [
      GREETING,
      { bubbles: [{ type: "text", text: "Até logo" }], set: { zapdesk_handover: "close" } },
    ]);
    const other = customerNumber();
    const closing = await heldConversation(toClose, other);
    await customerWrites(t, admin, toClose.whatsappId, { from: other, body: "nada" });
    await eventually(async () => expect(await ticketRowOf(t, other)).toMatchObject({ status: "closed" }), BOT_WAIT);
    await flush(t, admin, [toClose.sockets.agent]);
    expect(ticketsSeen(toClose.sockets.agent, closing.id).at(-1)).toMatchObject({ status: "closed", botHeld: false });
  });

  it("bring the ticket to the waiting list when a silent session times out", async () => {
    const setup = await botQueue(() => [GREETING]);
    const from = customerNumber();
    const ticket = await heldConversation(setup, from);
    expect(ticketsSeen(setup.sockets.agent, ticket.id).filter((seen) => waitingFor(seen, AGENT))).toEqual([]);
    await t.database.db
      .update(botSessions)
      .set({ lastActivityAt: new Date(Date.now() - 60 * 60_000) })
      .where(eq(botSessions.ticketId, ticket.id));
    await eventually(async () => expect(await held(ticket.id)).toBe(false), BOT_WAIT);
    await flush(t, admin, [setup.sockets.agent]);
    const last = ticketsSeen(setup.sockets.agent, ticket.id).at(-1)!;
    expect(waitingFor(last, AGENT)).toBe(true);
  });

  it("end when a person moves the held ticket: another queue's agents see it waiting at once, not at the customer's next message", async () => {
    const setup = await botQueue(() => [GREETING]);
    const from = customerNumber();
    const ticket = await heldConversation(setup, from);
    const other = await makeQueue(t);
    const otherAgent = await makeUser(t, { queueIds: [other.id] });
    const waitingIds = async (user: TestUser) => {
      const res = await t.app.inject({ method: "GET", url: "/api/tickets?status=pending", headers: user.auth });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { tickets: Ticket[] }).tickets.map((listed) => listed.id);
    };
    expect(await waitingIds(otherAgent)).not.toContain(ticket.id);

    const moved = await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket.id}`,
      headers: admin.auth,
      payload: { status: "pending", queueId: other.id },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ queueId: other.id, botHeld: false });
    expect(await held(ticket.id)).toBe(false);
    expect(await waitingIds(otherAgent)).toContain(ticket.id);

    // The customer's next message stays with the people: the old queue's bot does not take it back.
    await customerWrites(t, admin, setup.whatsappId, { from, body: "ainda aqui" });
    await eventually(async () => expect((await ticketRowOf(t, from))?.lastMessage).toBe("ainda aqui"));
    expect(await held(ticket.id)).toBe(false);
  });

  it("end when an admin accepts the held ticket", async () => {
    const setup = await botQueue(() => [GREETING]);
    const ticket = await heldConversation(setup, customerNumber());
    const res = await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket.id}`,
      headers: admin.auth,
      payload: { status: "open", userId: admin.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: "open", botHeld: false });
    expect(await held(ticket.id)).toBe(false);
  });
});
