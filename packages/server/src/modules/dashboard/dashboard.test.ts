import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, listTickets, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

const dashboard = (user: TestUser, query: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url: "/api/dashboard", headers: user.auth, query });

describe("dashboard", () => {
  it("counts the tickets each user may see, with today's hours, the month's days, closings by month and by user", async () => {
    // The tickets are made between `started` and `now` (below): on a slow machine that may span the
    // turn of an hour, a day or a month, and each count is of the buckets the span covers.
    const started = new Date();
    const sales = await makeQueue(t);
    const support = await makeQueue(t);
    const seller = await makeUser(t, { queueIds: [sales.id], name: "Seller" });
    const connection = await makeSimulatorConnection(t, admin);
    const ids: number[] = [];
    for (const queueId of [sales.id, sales.id, support.id]) {
      const from = customerNumber();
      await customerWrites(t, admin, connection.id, { from, body: "hi" });
      const ticket = (await listTickets(t, admin, { showAll: "true", status: "pending" })).tickets.find(
        (x) => x.contact.number === from,
      )!;
      await t.app.inject({
        method: "PUT",
        url: `/api/tickets/${ticket.id}`,
        headers: admin.auth,
        payload: { status: "pending", userId: null, queueId },
      });
      ids.push(ticket.id);
    }
    await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ids[0]}`,
      headers: seller.auth,
      payload: { status: "open", userId: seller.id },
    });
    await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ids[0]}`,
      headers: seller.auth,
      payload: { status: "closed", userId: seller.id },
    });
    await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ids[1]}`,
      headers: seller.auth,
      payload: { status: "open", userId: seller.id },
    });

    const all = (await dashboard(admin)).json();
    expect(all.counts).toEqual({ open: 1, pending: 1, closed: 1 });
    const forSeller = (await dashboard(seller)).json();
    expect(forSeller.counts).toEqual({ open: 1, pending: 0, closed: 1 });
    expect(all.today.map((b: { key: number }) => b.key)).toEqual([8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    const now = new Date();
    const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
    const monthly = (await dashboard(admin, { month })).json();
    type Bucket = { key: number; count: number };
    const counted = (buckets: Bucket[], from: number, to: number) =>
      buckets.filter((b) => b.key >= from && b.key <= to).reduce((sum, b) => sum + b.count, 0);
    const sameMonth = started.getUTCMonth() === now.getUTCMonth();
    const sameDay = sameMonth && started.getUTCDate() === now.getUTCDate();
    if (sameMonth) {
      expect(counted(monthly.month, started.getUTCDate(), now.getUTCDate())).toBe(3);
      expect(monthly.closedByMonth[now.getUTCMonth()].count).toBe(1);
    }
    expect(monthly.closedByUser).toEqual([{ userId: seller.id, name: "Seller", count: 1 }]);
    const [from, to] = [started.getUTCHours(), now.getUTCHours()];
    if (sameDay && from >= 8 && to <= 19) expect(counted(all.today, from, to)).toBe(3);

    expect((await dashboard(admin, { month: "2026-13" })).json().details[0].path).toEqual(["month"]);
    expect((await dashboard(admin, { tz: "Mars/Base" })).json().details[0].path).toEqual(["tz"]);
    expect((await dashboard(admin, { tz: "America/Sao_Paulo" })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/dashboard" })).statusCode).toBe(401);
  });
});
