import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  botBodies,
  customerNumber,
  customerWrites,
  eventually,
  makeSimulatorConnection,
  ticketRowOf,
} from "../../../test/conversation.js";
import { makeAdmin, makeQueue, type TestUser } from "../../../test/factories.js";
import { createTestApp, manualClock, type TestApp } from "../../../test/harness.js";

// Issue 23 §3: a menu level not answered in time hands the ticket to its timeout queue, once,
// whatever the number of processes sweeping (two apps on one database here).
const clock = manualClock(new Date("2026-03-02T12:00:00Z"));
let t: TestApp;
let other: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ clock, accessTtlSeconds: 365 * 86_400 });
  other = await createTestApp({ clock, database: t.database, accessTtlSeconds: 365 * 86_400 });
  admin = await makeAdmin(t);
});
afterAll(async () => {
  await other.close();
  await t.close();
});

async function ticketOf(number: string) {
  const ticket = await ticketRowOf(t, number);
  if (!ticket) throw new Error(`no ticket for ${number}`);
  return ticket;
}

const botBodiesOf = (ticketId: number) => botBodies(t, ticketId);

describe("menu timeout", () => {
  it("hands a silent customer to the level's timeout queue exactly once across two apps", async () => {
    const first = await makeQueue(t, { name: "Primeira" });
    const late = await makeQueue(t, { name: "Sem resposta", greetingMessage: "Vamos te atender, {{name}}." });
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [first.id, late.id], greetingMessage: "Escolha:" });
    const res = await t.app.inject({
      method: "PUT",
      url: `/api/whatsapp/${connection.id}/menu`,
      headers: admin.auth,
      payload: {
        menu: {
          options: [
            {
              label: "Financeiro",
              target: "menu",
              timeoutMinutes: 10,
              timeoutQueueId: late.id,
              options: [{ label: "Boletos", target: "queue", queueId: first.id }],
            },
            { label: "Outros", target: "person" },
          ],
        },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, name: "Rui", body: "oi" });
    await customerWrites(t, admin, connection.id, { from, name: "Rui", body: "1" });
    const waiting = await ticketOf(from);
    expect(waiting.menuDeadlineAt?.getTime()).toBe(clock.now().getTime() + 10 * 60_000);

    // Not due yet: nothing moves.
    clock.advance(9 * 60_000);
    await Promise.all([t.services.menus.sweep(), other.services.menus.sweep()]);
    expect((await ticketOf(from)).queueId).toBeNull();

    clock.advance(2 * 60_000);
    const counts = await Promise.all([
      t.services.menus.sweep(),
      other.services.menus.sweep(),
      t.services.menus.sweep(),
      other.services.menus.sweep(),
    ]);
    expect(counts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1);
    await eventually(async () => expect((await ticketOf(from)).queueId).toBe(late.id));
    expect(await ticketOf(from)).toMatchObject({ menuNodeId: null, menuDeadlineAt: null, status: "pending" });
    expect(await botBodiesOf(waiting.id)).toEqual([
      "Escolha:\n*1* - Financeiro\n*2* - Outros",
      "Financeiro\n*1* - Boletos",
      "Vamos te atender, Rui.",
    ]);

    // An answer after the hand-over is the conversation's; later sweeps find nothing.
    await customerWrites(t, admin, connection.id, { from, name: "Rui", body: "1" });
    clock.advance(60 * 60_000);
    await Promise.all([t.services.menus.sweep(), other.services.menus.sweep()]);
    expect(await botBodiesOf(waiting.id)).toHaveLength(3);
  });
});
