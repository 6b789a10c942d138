import type { MenuTreeInput } from "@zapdesk/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { botBodies, customerNumber, customerWrites, makeSimulatorConnection, ticketRowOf } from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, manualClock, type TestApp } from "../../../test/harness.js";

// Issue 23 §3: a customer walks a connection's menu tree (docs/menus.md), with a plain customer
// message (which the batch hands to the one-message road) and with a message quoting another (the
// one-message road at once): the same outcome.
const clock = manualClock(new Date("2026-03-02T12:00:00Z"));
let t: TestApp;
let admin: TestUser;
let ana: TestUser;
const q = {} as Record<"person" | "sales" | "support" | "fallback", { id: number }>;
let connectionId: number;

const ROOT = "Olá {{name}}! Escolha:";
const tree = (): MenuTreeInput => ({
  message: ROOT,
  personWords: ["atendente", "humano", "pessoa"],
  fallbackQueueId: q.fallback.id,
  options: [
    {
      label: "Vendas",
      target: "menu",
      message: "Vendas, {{name}}:",
      personWords: ["atendente"],
      fallbackQueueId: q.fallback.id,
      options: [
        { label: "Novos pedidos", target: "queue", queueId: q.sales.id },
        { label: "Falar com a Ana", target: "agent", queueId: q.sales.id, userId: ana.id, message: "Chamando a Ana." },
      ],
    },
    { label: "Suporte", target: "queue", queueId: q.support.id },
    { label: "Uma pessoa", target: "person" },
  ],
});

beforeAll(async () => {
  t = await createTestApp({ clock, accessTtlSeconds: 365 * 86_400 });
  admin = await makeAdmin(t);
  q.person = await makeQueue(t, { name: "Atendimento", greetingMessage: "Atendimento: já vamos falar com você." });
  q.sales = await makeQueue(t, { name: "Vendas", greetingMessage: "Bem-vindo a Vendas, {{name}}." });
  q.support = await makeQueue(t, { name: "Suporte", greetingMessage: "Suporte aqui." });
  q.fallback = await makeQueue(t, { name: "Triagem", greetingMessage: "Triagem: um momento." });
  ana = await makeUser(t, { name: "Ana", queueIds: [q.sales.id] });
  const connection = await makeSimulatorConnection(t, admin, {
    queueIds: [q.person.id, q.sales.id, q.support.id, q.fallback.id],
    greetingMessage: "unused: the tree's root has its own text",
  });
  connectionId = connection.id;
  const res = await t.app.inject({
    method: "PUT",
    url: `/api/whatsapp/${connectionId}/menu`,
    headers: admin.auth,
    payload: { menu: tree() },
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(() => t.close());

async function ticketOf(number: string) {
  const ticket = await ticketRowOf(t, number);
  if (!ticket) throw new Error(`no ticket for ${number}`);
  return ticket;
}

const botBodiesOf = (ticketId: number) => botBodies(t, ticketId);

type Road = "batch" | "one";
/** A customer's conversation: each answer written on the given road, a few seconds apart. */
async function customer(road: Road, name = "Bia") {
  const from = customerNumber();
  return {
    from,
    async says(body: string) {
      clock.advance(6000);
      await customerWrites(t, admin, connectionId, { from, name, body, ...(road === "one" ? { quotedId: "NOT-STORED" } : {}) });
    },
    ticket: () => ticketOf(from),
    bodies: async () => botBodiesOf((await ticketOf(from)).id),
  };
}

const rootText = (name: string) => `Olá ${name}! Escolha:\n*1* - Vendas\n*2* - Suporte\n*3* - Uma pessoa`;
const salesText = (name: string) => `Vendas, ${name}:\n*1* - Novos pedidos\n*2* - Falar com a Ana`;

describe.each(["batch", "one"] as Road[])("a menu tree (%s road)", (road) => {
  it("goes down two levels to a queue, whose greeting follows", async () => {
    const c = await customer(road);
    await c.says("oi");
    expect(await c.ticket()).toMatchObject({ queueId: null, userId: null, menuRetries: 0 });
    await c.says("1");
    await c.says("1");
    expect(await c.bodies()).toEqual([rootText("Bia"), salesText("Bia"), "Bem-vindo a Vendas, Bia."]);
    expect(await c.ticket()).toMatchObject({ queueId: q.sales.id, userId: null, status: "pending", menuNodeId: null });
    // Handed over: later messages are the conversation's, no menu again.
    await c.says("2");
    expect(await c.bodies()).toHaveLength(3);
  });

  it("goes to an agent: the ticket is theirs in the queue, after the option's own text", async () => {
    const c = await customer(road, "Caio");
    for (const body of ["bom dia", "1", "2"]) await c.says(body);
    expect(await c.bodies()).toEqual([rootText("Caio"), salesText("Caio"), "Chamando a Ana.", "Bem-vindo a Vendas, Caio."]);
    expect(await c.ticket()).toMatchObject({ queueId: q.sales.id, userId: ana.id, status: "open" });
  });

  it("hands over to a person on a 'talk to a person' word at any level (accents and case ignored)", async () => {
    const c = await customer(road);
    for (const body of ["oi", "1", "Quero falar com um ATENDENTE!"]) await c.says(body);
    expect((await c.ticket()).queueId).toBe(q.person.id);
    expect((await c.bodies()).at(-1)).toBe("Atendimento: já vamos falar com você.");
    const d = await customer(road);
    for (const body of ["oi", "um humano, por favor"]) await d.says(body);
    expect((await d.ticket()).queueId).toBe(q.person.id);
    const e = await customer(road);
    for (const body of ["oi", "3"]) await e.says(body);
    expect((await e.ticket()).queueId).toBe(q.person.id);
  });

  it("re-asks an invalid answer twice, then hands over to the fallback queue", async () => {
    const c = await customer(road);
    for (const body of ["oi", "1", "banana", "9", "talvez"]) await c.says(body);
    expect(await c.bodies()).toEqual([
      rootText("Bia"),
      salesText("Bia"),
      salesText("Bia"),
      salesText("Bia"),
      "Triagem: um momento.",
    ]);
    expect(await c.ticket()).toMatchObject({ queueId: q.fallback.id, menuNodeId: null, menuRetries: 0 });
  });

  it("does not count a chatty customer's messages right after the menu as answers", async () => {
    const c = await customer(road);
    await c.says("oi");
    await customerWrites(t, admin, connectionId, { from: c.from, name: "Bia", body: "tudo bem?" });
    await customerWrites(t, admin, connectionId, { from: c.from, name: "Bia", body: "preciso de ajuda" });
    expect(await c.bodies()).toEqual([rootText("Bia")]);
    expect((await c.ticket()).menuRetries).toBe(0);
  });

  it("goes back one level on '0' or 'voltar'", async () => {
    const c = await customer(road);
    for (const body of ["oi", "1", "voltar", "1", "0", "0", "2"]) await c.says(body);
    expect(await c.bodies()).toEqual([
      rootText("Bia"),
      salesText("Bia"),
      rootText("Bia"),
      salesText("Bia"),
      rootText("Bia"),
      // "0" at the first level says it again (no invalid answer counted).
      rootText("Bia"),
      "Suporte aqui.",
    ]);
    expect((await c.ticket()).queueId).toBe(q.support.id);
  });
});
