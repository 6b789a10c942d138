import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  customerNumber,
  customerWrites,
  eventually,
  listTickets,
  makeSimulatorConnection,
  phoneReceived,
} from "../../../test/conversation.js";
import { makeAdmin, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import type { ChannelFactory, OutboundMessage } from "../../channels/channel.js";

/**
 * Deleting a message for everyone while the outbox is sending it: the customer must never keep a
 * message Zapdesk shows as deleted. The simulator's sends wait on a gate the test opens, as a slow
 * WhatsApp would make them.
 */
let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let connectionId: number;
let gate: { open(): void; opened: Promise<void>; sending: OutboundMessage[] } | undefined;

beforeAll(async () => {
  const gated: ChannelFactory = (context) => {
    const real = t.simulator.factory(context);
    return {
      ...real,
      async send(message) {
        if (gate) {
          gate.sending.push(message);
          await gate.opened;
        }
        return real.send(message);
      },
    };
  };
  t = await createTestApp({ factories: { simulator: gated } });
  admin = await makeAdmin(t);
  agent = await makeUser(t);
  connectionId = (await makeSimulatorConnection(t, admin, { isDefault: true })).id;
});
afterEach(() => {
  // A test that failed half-way leaves no send waiting for ever.
  gate?.open();
  gate = undefined;
});
afterAll(() => t.close());

function closedGate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened, sending: [] as OutboundMessage[] };
}

async function openTicket() {
  const from = customerNumber();
  await customerWrites(t, admin, connectionId, { from, body: "hi there" });
  const ticket = (await listTickets(t, admin, { showAll: "true", status: "pending" })).tickets.find(
    (x) => x.contact.number === from,
  )!;
  await t.app.inject({
    method: "PUT",
    url: `/api/tickets/${ticket.id}`,
    headers: agent.auth,
    payload: { status: "open", userId: agent.id },
  });
  return { ticket, from };
}

describe("deleting a message the outbox is sending", () => {
  it("waits for the send under way, then revokes it: the customer never keeps a message shown as deleted", async () => {
    const { ticket, from } = await openTicket();
    gate = closedGate();
    const sent = await t.app.inject({
      method: "POST",
      url: `/api/messages/${ticket.id}`,
      headers: agent.auth,
      payload: { body: "oops" },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const current = gate;
    await eventually(async () => expect(current.sending.map((m) => m.body)).toEqual(["oops"]));

    const removing = t.app.inject({ method: "DELETE", url: `/api/messages/${sent.json().id}`, headers: agent.auth });
    // The send goes on while the delete waits for it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    current.open();
    const removed = await removing;
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().isDeleted).toBe(true);
    const received = await phoneReceived(t, admin, connectionId, from);
    expect(received.map((m) => ({ body: m.body, deleted: m.deleted }))).toEqual([{ body: "oops", deleted: true }]);
  });

  it("a send that stays under way answers ERR_MESSAGE_SENDING and leaves the message as it is", async () => {
    const { ticket, from } = await openTicket();
    gate = closedGate();
    const sent = await t.app.inject({
      method: "POST",
      url: `/api/messages/${ticket.id}`,
      headers: agent.auth,
      payload: { body: "slow" },
    });
    const current = gate;
    await eventually(async () => expect(current.sending).toHaveLength(1));

    const refused = await t.app.inject({ method: "DELETE", url: `/api/messages/${sent.json().id}`, headers: agent.auth });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error).toBe("ERR_MESSAGE_SENDING");

    current.open();
    gate = undefined;
    await eventually(async () =>
      expect((await phoneReceived(t, admin, connectionId, from)).map((m) => [m.body, m.deleted])).toEqual([["slow", false]]),
    );
    // Once it has left, the delete goes through and reaches the phone.
    await eventually(async () => {
      const removed = await t.app.inject({ method: "DELETE", url: `/api/messages/${sent.json().id}`, headers: agent.auth });
      expect(removed.statusCode, removed.body).toBe(200);
    });
    expect((await phoneReceived(t, admin, connectionId, from))[0].deleted).toBe(true);
  });

  it("a message still waiting in the outbox is taken back: nothing reaches the phone", async () => {
    const { ticket, from } = await openTicket();
    await t.outbox.stop();
    try {
      const sent = await t.app.inject({
        method: "POST",
        url: `/api/messages/${ticket.id}`,
        headers: agent.auth,
        payload: { body: "never" },
      });
      const removed = await t.app.inject({ method: "DELETE", url: `/api/messages/${sent.json().id}`, headers: agent.auth });
      expect(removed.statusCode, removed.body).toBe(200);
    } finally {
      t.outbox.start();
    }
    await t.outbox.drain();
    expect(await phoneReceived(t, admin, connectionId, from)).toEqual([]);
  });
});
