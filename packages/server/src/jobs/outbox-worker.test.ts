import type { Message, Ticket } from "@zapdesk/core";
import { OUTBOX_NOTICES } from "@zapdesk/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, eventually, makeSimulatorConnection, phoneReceived } from "../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../test/factories.js";
import { createTestApp, type TestApp } from "../../test/harness.js";
import { type ChannelFactory, SendFailure, SendOutcomeUnknown } from "../channels/channel.js";
import { messages, outbox } from "../db/schema.js";

let t: TestApp;
let admin: TestUser;
/** Failures the next sends of any simulator session throw, in order (what a provider refuses). */
const script: Error[] = [];
/** Every body handed to a channel's send, in order (whatever came of it). */
const attempted: string[] = [];

beforeAll(async () => {
  const scripted: ChannelFactory = (context) => {
    const session = t.simulator.factory(context);
    return {
      ...session,
      async send(message) {
        attempted.push(message.body);
        const failure = script.shift();
        if (failure) throw failure;
        return session.send(message);
      },
    };
  };
  t = await createTestApp({ factories: { simulator: scripted } });
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

async function openTicket(whatsappId: number) {
  const customer = customerNumber();
  await customerWrites(t, admin, whatsappId, { from: customer, body: "hi" });
  const list = await t.app.inject({
    method: "GET",
    url: "/api/tickets",
    headers: admin.auth,
    query: { showAll: "true", searchParam: customer },
  });
  const ticket = (list.json() as { tickets: Ticket[] }).tickets[0];
  await t.app.inject({
    method: "PUT",
    url: `/api/tickets/${ticket.id}`,
    headers: admin.auth,
    payload: { status: "open", userId: admin.id },
  });
  return { customer, ticket };
}

async function send(ticketId: number, body: string) {
  const res = await t.app.inject({ method: "POST", url: `/api/messages/${ticketId}`, headers: admin.auth, payload: { body } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Message;
}

const row = async (id: number) => (await t.database.db.select().from(messages).where(eq(messages.id, id)))[0];

describe("the outbox", () => {
  it("paces one connection's sends by its minimum gap without holding back another connection", async () => {
    const paced = await makeSimulatorConnection(t, admin);
    const pacing = await t.app.inject({
      method: "PUT",
      url: `/api/whatsapp/${paced.id}`,
      headers: admin.auth,
      payload: { pacing: { minGapMs: 1000, jitterMs: 0 } },
    });
    expect(pacing.json().pacing).toEqual({ minGapMs: 1000, jitterMs: 0 });
    const free = await makeSimulatorConnection(t, admin);
    const a = await openTicket(paced.id);
    const b = await openTicket(free.id);
    for (const body of ["one", "two", "three"]) await send(a.ticket.id, body);
    // The API token endpoint goes through the same outbox: no way around the pacing.
    const settings = await t.app.inject({ method: "GET", url: "/api/settings", headers: admin.auth });
    const token = (settings.json() as { key: string; value: string }[]).find((x) => x.key === "userApiToken")!.value;
    const api = await t.app.inject({
      method: "POST",
      url: "/api/messages/send",
      headers: { authorization: `Bearer ${token}` },
      payload: { number: a.customer, body: "four, by API" },
    });
    expect(api.statusCode, api.body).toBe(201);
    await send(b.ticket.id, "not held back");
    // How far the paced connection had got when it was queued (a loaded machine may be slow to get here).
    const pacedBefore = (await phoneReceived(t, admin, paced.id, a.customer)).length;
    const [other] = await eventually(async () => {
      const list = await phoneReceived(t, admin, free.id, b.customer);
      expect(list).toHaveLength(1);
      return list;
    });
    const received = await eventually(async () => {
      const list = await phoneReceived(t, admin, paced.id, a.customer);
      expect(list).toHaveLength(4);
      return list;
    }, 10_000);
    expect(received.map((m) => m.body)).toEqual(["one", "two", "three", "four, by API"]);
    const times = received.map((m) => Date.parse(m.timestamp));
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(990);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(990);
    expect(times[3] - times[2]).toBeGreaterThanOrEqual(990);
    // Sent after the paced ones were queued, it did not wait behind them: it left before the paced
    // connection's next message (a gap later).
    if (pacedBefore < 4) expect(Date.parse(other.timestamp)).toBeLessThan(times[pacedBefore]);
  });

  it("fails a message WhatsApp refuses for good, with the reason, and retries a transient refusal", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const { ticket, customer } = await openTicket(connection.id);
    script.push(new SendFailure("131026", "Message undeliverable", true));
    const refused = await send(ticket.id, "cannot arrive");
    await eventually(async () =>
      expect(await row(refused.id)).toMatchObject({ ack: -1, errorCode: "131026", errorTitle: "Message undeliverable" }),
    );
    expect(await t.database.db.select().from(outbox).where(eq(outbox.messageId, refused.id))).toEqual([]);

    script.push(new SendFailure("130429", "Rate limit hit", false, 50));
    const delayed = await send(ticket.id, "arrives later");
    await eventually(async () => {
      const [queued] = await t.database.db.select().from(outbox).where(eq(outbox.messageId, delayed.id));
      expect(queued?.lastError).toMatch(/130429/);
    });
    // The backoff (about 2 s for a first failure) then sends it.
    await eventually(async () => expect((await row(delayed.id)).ack).toBe(1), 8000);
    expect((await phoneReceived(t, admin, connection.id, customer)).map((m) => m.body)).toEqual(["arrives later"]);
  });
});

describe("a send whose answer never came", () => {
  it("is left unconfirmed with its wid and a reason, never resent; a later status settles it; the agent may resend", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const { ticket, customer } = await openTicket(connection.id);
    script.push(new SendOutcomeUnknown("no answer within 30 s", "3EB0UNKNOWN0000000001"));
    const lost = await send(ticket.id, "did it arrive?");
    await eventually(async () =>
      expect(await row(lost.id)).toMatchObject({
        ack: 0,
        wid: "3EB0UNKNOWN0000000001",
        errorCode: OUTBOX_NOTICES.outcomeUnknown,
        errorTitle: expect.stringMatching(/no answer within 30 s/),
      }),
    );
    expect(await t.database.db.select().from(outbox).where(eq(outbox.messageId, lost.id))).toEqual([]);
    // The chat goes on; the unconfirmed one is never handed to the channel again.
    const next = await send(ticket.id, "and this one");
    await eventually(async () => expect((await row(next.id)).ack).toBe(1));
    await t.outbox.drain();
    expect(attempted.filter((body) => body === "did it arrive?")).toHaveLength(1);
    const shown = await t.app.inject({ method: "GET", url: `/api/messages/${ticket.id}`, headers: admin.auth });
    expect((shown.json().messages as Message[]).find((m) => m.id === lost.id)?.error).toMatchObject({
      code: OUTBOX_NOTICES.outcomeUnknown,
    });

    // WhatsApp's delivery report for that id comes through the pipeline: it did arrive.
    await t.pipeline.onUpdate(connection.id, { wid: "3EB0UNKNOWN0000000001", chat: customer, fromMe: true, ack: 2 });
    expect(await row(lost.id)).toMatchObject({ ack: 2, errorCode: null, errorTitle: null });

    // Another one the agent decides did not arrive: sent again by hand, under a fresh id.
    script.push(new SendOutcomeUnknown("no answer within 30 s"));
    const again = await send(ticket.id, "send me again");
    await eventually(async () => expect((await row(again.id)).errorCode).toBe(OUTBOX_NOTICES.outcomeUnknown));
    const retry = await t.app.inject({ method: "POST", url: `/api/messages/${again.id}/retry`, headers: admin.auth });
    expect(retry.statusCode, retry.body).toBe(200);
    await eventually(async () => expect(await row(again.id)).toMatchObject({ ack: 1, errorCode: null }));
    expect((await phoneReceived(t, admin, connection.id, customer)).map((m) => m.body)).toEqual([
      "and this one",
      "send me again",
    ]);
  });
});
