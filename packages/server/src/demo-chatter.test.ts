import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, listTickets, makeSimulatorConnection, ticketMessages } from "../test/conversation.js";
import { makeAdmin, makeQueue, type TestUser } from "../test/factories.js";
import { createTestApp, type TestApp } from "../test/harness.js";
import { DEMO_CUSTOMERS, startChatter } from "./demo-chatter.js";

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

describe("the demo's customers keep writing (issue 20 §2.9)", () => {
  it("each sends the next line of their conversation on a timer, through the simulator, until stopped", async () => {
    const sales = await makeQueue(t, { name: "Vendas" });
    const support = await makeQueue(t, { name: "Suporte" });
    const connection = await makeSimulatorConnection(t, admin, {
      queueIds: [sales.id, support.id],
      greetingMessage: "Escolha um setor:",
    });
    let calls = 0;
    let turn = 0;
    const errors: unknown[] = [];
    const chatter = startChatter((from, name, body) => t.simulator.inbound(connection.id, { from, name, body }), {
      everyMs: 30,
      // Odd calls draw the delay, even ones the customer: customers in turn, 0, 1, 2, 0, 1, 2…
      random: () => (++calls % 2 === 1 ? 0.5 : ((turn++ % DEMO_CUSTOMERS.length) + 0.5) / DEMO_CUSTOMERS.length),
      onError: (error) => errors.push(error),
    });
    const ticketOf = async (number: string) =>
      (await listTickets(t, admin, { showAll: "true", searchParam: number })).tickets.find((x) => x.contact.number === number);
    try {
      await eventually(async () => {
        for (const customer of DEMO_CUSTOMERS) {
          const ticket = await ticketOf(customer.number);
          expect(ticket).toBeDefined();
          // The menu's answer routed the ticket to the queue the line picks.
          expect(ticket?.queueId).not.toBeNull();
        }
      }, 20_000);
    } finally {
      await chatter.stop();
    }
    expect(errors).toEqual([]);
    const camila = await ticketOf(DEMO_CUSTOMERS[0].number);
    const written = (await ticketMessages(t, admin, camila!.id)).messages.filter((m) => !m.fromMe).map((m) => m.body);
    expect(written.slice(0, 2)).toEqual(DEMO_CUSTOMERS[0].lines.slice(0, 2));
    expect(camila?.queueId).toBe(sales.id);

    // Stopped (and the line being written when it stopped, stored): nothing more comes.
    const count = async () => (await ticketMessages(t, admin, camila!.id)).messages.length;
    const before = await count();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await count()).toBe(before);
  });
});
