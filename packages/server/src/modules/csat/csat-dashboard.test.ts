import type { Connection, RatingDashboard, Ticket } from "@zapdesk/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, listTickets, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, manualClock, type TestApp } from "../../../test/harness.js";

let t: TestApp;
let admin: TestUser;
// Mid-month, so the rated tickets fall in the clock's month whatever the time zone.
const clock = manualClock(new Date(Date.UTC(2026, 5, 15, 12)));

beforeAll(async () => {
  t = await createTestApp({ clock, accessTtlSeconds: 30 * 86_400 });
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

const put = (user: TestUser, id: number, payload: Record<string, unknown>) =>
  t.app.inject({ method: "PUT", url: `/api/tickets/${id}`, headers: user.auth, payload });

async function rate(connection: Connection, agent: TestUser, queueId: number, rating: string) {
  const from = customerNumber();
  await customerWrites(t, admin, connection.id, { from, body: "oi" });
  const ticket = (await listTickets(t, admin, { showAll: "true", status: "pending" })).tickets.find(
    (x) => x.contact.number === from,
  ) as Ticket;
  expect((await put(admin, ticket.id, { status: "pending", userId: null, queueId })).statusCode).toBe(200);
  expect((await put(agent, ticket.id, { status: "open", userId: agent.id })).statusCode).toBe(200);
  expect((await put(agent, ticket.id, { status: "closed", userId: agent.id })).statusCode).toBe(200);
  await customerWrites(t, admin, connection.id, { from, body: rating });
}

const ratings = async (user: TestUser, query: Record<string, string> = {}) => {
  const res = await t.app.inject({ method: "GET", url: "/api/dashboard/ratings", headers: user.auth, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as RatingDashboard;
};

describe("CSAT on the dashboard", () => {
  it("averages and distributes the month's ratings per agent and per queue, over the tickets the viewer may see", async () => {
    const sales = await makeQueue(t, { name: "Vendas CSAT" });
    const support = await makeQueue(t, { name: "Suporte CSAT" });
    const ana = await makeUser(t, { queueIds: [sales.id], name: "Ana CSAT" });
    const bia = await makeUser(t, { queueIds: [support.id], name: "Bia CSAT" });
    const connection = await makeSimulatorConnection(t, admin);
    await t.app.inject({
      method: "PUT",
      url: `/api/whatsapp/${connection.id}`,
      headers: admin.auth,
      payload: { ratingMessage: "Nota de 1 a 5?" },
    });
    await rate(connection, ana, sales.id, "5");
    await rate(connection, ana, sales.id, "4");
    await rate(connection, bia, support.id, "⭐⭐");
    // Not an answer: counted nowhere.
    await rate(connection, bia, support.id, "obrigado");

    const all = await ratings(admin, { month: "2026-06", tz: "America/Sao_Paulo" });
    expect(all.overall).toEqual({ count: 3, average: 3.67, distribution: [0, 1, 0, 1, 1] });
    expect(all.byUser).toEqual([
      { userId: ana.id, name: "Ana CSAT", count: 2, average: 4.5, distribution: [0, 0, 0, 1, 1] },
      { userId: bia.id, name: "Bia CSAT", count: 1, average: 2, distribution: [0, 1, 0, 0, 0] },
    ]);
    expect(all.byQueue).toEqual([
      { queueId: sales.id, name: "Vendas CSAT", color: sales.color, count: 2, average: 4.5, distribution: [0, 0, 0, 1, 1] },
      { queueId: support.id, name: "Suporte CSAT", color: support.color, count: 1, average: 2, distribution: [0, 1, 0, 0, 0] },
    ]);
    // The current month is the default.
    expect((await ratings(admin)).overall.count).toBe(3);

    // An agent sees their queues' tickets only.
    const forAna = await ratings(ana, { month: "2026-06" });
    expect(forAna.overall).toEqual({ count: 2, average: 4.5, distribution: [0, 0, 0, 1, 1] });
    expect(forAna.byQueue.map((q) => q.queueId)).toEqual([sales.id]);

    // Another month: nothing.
    const may = await ratings(admin, { month: "2026-05" });
    expect(may).toEqual({ overall: { count: 0, average: null, distribution: [0, 0, 0, 0, 0] }, byUser: [], byQueue: [] });
  });

  it("credits a rating to the agent who resolved the conversation, not whoever holds the ticket later (issue 20 §2.5)", async () => {
    const queue = await makeQueue(t, { name: "Resolver CSAT" });
    const caio = await makeUser(t, { queueIds: [queue.id], name: "Caio CSAT" });
    const duda = await makeUser(t, { queueIds: [queue.id], name: "Duda CSAT" });
    const connection = await makeSimulatorConnection(t, admin);
    await t.app.inject({
      method: "PUT",
      url: `/api/whatsapp/${connection.id}`,
      headers: admin.auth,
      payload: { ratingMessage: "Nota de 1 a 5?" },
    });
    await rate(connection, caio, queue.id, "5");
    const [ticket] = (await listTickets(t, admin, { showAll: "true", status: "closed" })).tickets.filter(
      (x) => x.user?.id === caio.id,
    );
    // The rated ticket is reopened and handed to another agent.
    expect((await put(admin, ticket.id, { status: "open", userId: duda.id })).statusCode).toBe(200);

    const { byUser, byQueue } = await ratings(admin, { month: "2026-06" });
    expect(byUser.find((u) => u.userId === caio.id)).toMatchObject({ name: "Caio CSAT", count: 1, average: 5 });
    expect(byUser.find((u) => u.userId === duda.id)).toBeUndefined();
    expect(byQueue.find((q) => q.queueId === queue.id)).toMatchObject({ count: 1, average: 5 });
  });

  it("answers 400 to a bad period and 401 without a session", async () => {
    const bad: Record<string, string>[] = [{ month: "2026-13" }, { tz: "Mars/Olympus" }, { month: "junho" }];
    for (const query of bad) {
      const res = await t.app.inject({ method: "GET", url: "/api/dashboard/ratings", headers: admin.auth, query });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
    }
    expect((await t.app.inject({ method: "GET", url: "/api/dashboard/ratings" })).statusCode).toBe(401);
  });
});
