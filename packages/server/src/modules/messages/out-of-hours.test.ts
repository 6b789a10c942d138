import type { BusinessHoursInput } from "@zapdesk/core";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  botBodies,
  customerNumber,
  customerWrites,
  eventually,
  makeSimulatorConnection,
  phoneReceived,
  ticketRowOf,
} from "../../../test/conversation.js";
import { makeAdmin, makeQueue, type TestUser } from "../../../test/factories.js";
import { createTestApp, manualClock, type TestApp } from "../../../test/harness.js";
import type { InboundMessage } from "../../channels/channel.js";
import { messages, queues, tickets } from "../../db/schema.js";
import { sendOutOfHours } from "./out-of-hours.js";

// Monday 2026-01-05 23:00 in São Paulo (UTC-3): after hours.
const MONDAY_NIGHT = new Date("2026-01-06T02:00:00Z");
const clock = manualClock(MONDAY_NIGHT);
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ clock, accessTtlSeconds: 365 * 86_400 });
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

const NOTICE = "Estamos fechados, {{name}}. Atendemos de segunda a sexta, 9h às 18h.";
const officeHours = (overrides: Partial<BusinessHoursInput> = {}): BusinessHoursInput => ({
  timezone: "America/Sao_Paulo",
  days: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, from: "09:00", to: "18:00" })),
  outOfHoursMessage: NOTICE,
  ...overrides,
});

async function queueWith(schedule: BusinessHoursInput | null, greetingMessage = "") {
  const queue = await makeQueue(t, { greetingMessage });
  const res = await t.app.inject({ method: "PUT", url: `/api/queue/${queue.id}`, headers: admin.auth, payload: { schedule } });
  expect(res.statusCode, res.body).toBe(200);
  return queue;
}

const ticketOf = (number: string) => ticketRowOf(t, number);

const botBodiesOf = (ticketId: number) => botBodies(t, ticketId);

const noticeFor = (name: string) => NOTICE.replace("{{name}}", name);

describe("out-of-hours message", () => {
  it("goes once per ticket per day, however many messages, and the ticket still arrives pending in its queue", async () => {
    clock.advance(MONDAY_NIGHT.getTime() - clock.now().getTime());
    const queue = await queueWith(officeHours());
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    const from = customerNumber();
    for (const body of ["oi", "alguém aí?", "preciso de ajuda"]) {
      await customerWrites(t, admin, connection.id, { from, name: "Bia", body });
    }
    const ticket = await ticketOf(from);
    expect(ticket).toMatchObject({ status: "pending", queueId: queue.id, userId: null, unreadMessages: 3 });
    expect(ticket.outOfHoursSentOn).toBe("2026-01-05");
    expect(await botBodiesOf(ticket.id)).toEqual([noticeFor("Bia")]);
    await eventually(async () => {
      const received = await phoneReceived(t, admin, connection.id, from);
      expect(received.map((m) => m.body)).toEqual([noticeFor("Bia")]);
    });
    // The preview stays the customer's own text.
    expect(ticket.lastMessage).toBe("preciso de ajuda");

    // Tuesday 22:00 local: a new day, still closed — once more.
    clock.advance(23 * 3_600_000);
    await customerWrites(t, admin, connection.id, { from, name: "Bia", body: "e hoje?" });
    await customerWrites(t, admin, connection.id, { from, name: "Bia", body: "??" });
    expect(await botBodiesOf(ticket.id)).toEqual([noticeFor("Bia"), noticeFor("Bia")]);
    expect((await ticketOf(from)).outOfHoursSentOn).toBe("2026-01-06");
  });

  it("is not sent while the queue is open, without a schedule, or without a message", async () => {
    clock.advance(new Date("2026-01-07T13:00:00Z").getTime() - clock.now().getTime()); // Wednesday 10:00
    for (const schedule of [officeHours(), null]) {
      const queue = await queueWith(schedule);
      const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
      const from = customerNumber();
      await customerWrites(t, admin, connection.id, { from, body: "bom dia" });
      const ticket = await ticketOf(from);
      expect(ticket.queueId).toBe(queue.id);
      expect(await botBodiesOf(ticket.id)).toEqual([]);
    }
    clock.advance(12 * 3_600_000); // Wednesday 22:00, closed, but nothing to say.
    const silent = await queueWith(officeHours({ outOfHoursMessage: "  " }));
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [silent.id] });
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, body: "boa noite" });
    const ticket = await ticketOf(from);
    expect(ticket.status).toBe("pending");
    expect(await botBodiesOf(ticket.id)).toEqual([]);
  });

  it("treats a schedule without days as closed all week, and a holiday as closed all day", async () => {
    clock.advance(new Date("2026-01-07T15:00:00Z").getTime() - clock.now().getTime()); // Wednesday 12:00
    for (const schedule of [officeHours({ days: [] }), officeHours({ holidays: [{ date: "2026-01-07", name: "Folga" }] })]) {
      const queue = await queueWith(schedule);
      const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
      const from = customerNumber();
      await customerWrites(t, admin, connection.id, { from, name: "Caio", body: "olá" });
      const ticket = await ticketOf(from);
      expect(await botBodiesOf(ticket.id)).toEqual([noticeFor("Caio")]);
    }
  });

  it("is not sent to a ticket an agent has taken", async () => {
    clock.advance(MONDAY_NIGHT.getTime() + 7 * 86_400_000 - clock.now().getTime());
    const queue = await queueWith(officeHours());
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, body: "oi" });
    const ticket = await ticketOf(from);
    await t.database.db
      .update(tickets)
      .set({ status: "open", userId: admin.id, outOfHoursSentOn: null })
      .where(eq(tickets.id, ticket.id));
    await customerWrites(t, admin, connection.id, { from, body: "ainda aí?" });
    expect(await botBodiesOf(ticket.id)).toHaveLength(1);
  });

  it("after the queue menu, a closed queue the customer picks sends its greeting and then its out-of-hours message", async () => {
    clock.advance(MONDAY_NIGHT.getTime() + 14 * 86_400_000 - clock.now().getTime());
    const open = await queueWith(null);
    const closed = await queueWith(officeHours(), "Olá {{name}}, você está no Financeiro.");
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [open.id, closed.id], greetingMessage: "Escolha:" });
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, name: "Rui", body: "oi" });
    const ticket = await ticketOf(from);
    // The menu only: no queue yet, so no schedule applies.
    expect(await botBodiesOf(ticket.id)).toHaveLength(1);
    await customerWrites(t, admin, connection.id, { from, name: "Rui", body: "2" });
    const bodies = await botBodiesOf(ticket.id);
    expect(bodies.slice(1)).toEqual(["Olá Rui, você está no Financeiro.", noticeFor("Rui")]);
    expect((await ticketOf(from)).queueId).toBe(closed.id);
    await customerWrites(t, admin, connection.id, { from, name: "Rui", body: "obrigado" });
    expect(await botBodiesOf(ticket.id)).toHaveLength(3);
  });

  it("two transactions racing for the same ticket send it once", async () => {
    clock.advance(MONDAY_NIGHT.getTime() + 21 * 86_400_000 - clock.now().getTime());
    const queue = await queueWith(officeHours());
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, body: "oi" });
    const ticket = await ticketOf(from);
    await t.database.db.update(tickets).set({ outOfHoursSentOn: null }).where(eq(tickets.id, ticket.id));
    const race = await Promise.all(
      [1, 2, 3].map(() => t.database.db.transaction((tx) => sendOutOfHours(tx, clock, [{ ticket, name: "X" }]))),
    );
    expect(race.filter((sent) => sent.size === 1)).toHaveLength(1);
    expect(await botBodiesOf(ticket.id)).toHaveLength(2);
  });
});

describe("out-of-hours message under concurrency", () => {
  it("ten requests of one new customer at once: one ticket, ten messages, one notice", async () => {
    clock.advance(MONDAY_NIGHT.getTime() + 35 * 86_400_000 - clock.now().getTime());
    const queue = await queueWith(officeHours());
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    const from = customerNumber();
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => customerWrites(t, admin, connection.id, { from, name: "Duda", body: `m${i}` })),
    );
    const ticket = await ticketOf(from);
    expect(ticket).toMatchObject({ status: "pending", queueId: queue.id, unreadMessages: 10 });
    expect(await botBodiesOf(ticket.id)).toEqual([noticeFor("Duda")]);
    await eventually(async () => expect(await phoneReceived(t, admin, connection.id, from)).toHaveLength(1));
  });
});

describe("out-of-hours message on the batched path", () => {
  let serial = 0;
  const customerMessage = (from: string, body: string): InboundMessage => {
    serial += 1;
    return {
      wid: `OOH-${from}-${serial}`,
      chat: from,
      isGroup: false,
      sender: { number: from, name: `Cliente ${from.slice(-3)}` },
      fromMe: false,
      timestamp: new Date(clock.now().getTime() + serial),
      type: "chat",
      body,
    };
  };

  it("a burst from several customers, written in one transaction, gets one message per ticket", async () => {
    clock.advance(MONDAY_NIGHT.getTime() + 28 * 86_400_000 - clock.now().getTime());
    const queue = await queueWith(officeHours());
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue.id] });
    const numbers = [customerNumber(), customerNumber(), customerNumber()];
    const burst = Array.from({ length: 12 }, (_, i) => customerMessage(numbers[i % 3], `msg ${i}`));
    await Promise.all(burst.map((m) => t.pipeline.onMessage(connection.id, m)));
    const stored = await t.database.db
      .select({ tx: sql<string>`${messages}.xmin::text` })
      .from(messages)
      .where(
        inArray(
          messages.wid,
          burst.map((m) => m.wid),
        ),
      );
    expect(stored).toHaveLength(12);
    // Batched: one transaction for the customers' messages.
    expect(new Set(stored.map((r) => r.tx)).size).toBe(1);
    for (const number of numbers) {
      const ticket = await ticketOf(number);
      expect(ticket).toMatchObject({ status: "pending", queueId: queue.id, unreadMessages: 4 });
      expect(await botBodiesOf(ticket.id)).toEqual([noticeFor(`Cliente ${number.slice(-3)}`)]);
      await eventually(async () => expect(await phoneReceived(t, admin, connection.id, number)).toHaveLength(1));
    }
    // A second burst the same day sends nothing more.
    const again = numbers.map((n) => customerMessage(n, "de novo"));
    await Promise.all(again.map((m) => t.pipeline.onMessage(connection.id, m)));
    for (const number of numbers) expect(await botBodiesOf((await ticketOf(number)).id)).toHaveLength(1);
    expect((await t.database.db.select().from(queues).where(eq(queues.id, queue.id)))[0].schedule?.timezone).toBe(
      "America/Sao_Paulo",
    );
  });
});
