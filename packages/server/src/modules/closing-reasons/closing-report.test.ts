import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAdmin, makeContact, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { tickets } from "../../db/schema.js";
import { insertTicketIfNoneActive } from "../tickets/tickets.repo.js";
import { TICKET_CSV_COLUMNS } from "../tickets/tickets-export.js";

// Issue 23 §6: the dashboard's closing reasons (per reason, queue and agent) and the tickets CSV.
let t: TestApp;
let admin: TestUser;
let ana: TestUser;
let bia: TestUser;
let queueA: { id: number; name: string };
let queueB: { id: number; name: string };
let sale: { id: number; name: string };
let info: { id: number; name: string };
const PERIOD = "from=2026-03-01&to=2026-03-31&tz=America%2FSao_Paulo";

const call = (url: string, who: TestUser, method: "GET" | "POST" | "PUT" = "GET", payload?: object) =>
  t.app.inject({ method, url, headers: who.auth, payload });

/** A ticket of `who` in `queueId`, resolved through the route, then dated `closingAt`. */
async function closed(who: TestUser, queueId: number, closingAt: string, choice: object = {}) {
  const contact = await makeContact(t, { name: `Cliente ${who.name}` });
  const row = await insertTicketIfNoneActive(t.database.db, {
    contactId: contact.id,
    whatsappId: null,
    status: "open",
    isGroup: false,
    userId: who.id,
    queueId,
  });
  const res = await call(`/api/tickets/${row!.id}`, who, "PUT", { status: "closed", userId: who.id, ...choice });
  expect(res.statusCode, res.body).toBe(200);
  await t.database.db
    .update(tickets)
    .set({ closingAt: new Date(closingAt) })
    .where(eq(tickets.id, row!.id));
  return row!.id;
}

beforeAll(async () => {
  t = await createTestApp({ start: false });
  admin = await makeAdmin(t);
  queueA = await makeQueue(t, { name: "Vendas" });
  queueB = await makeQueue(t, { name: "Suporte" });
  ana = await makeUser(t, { name: "Ana", queueIds: [queueA.id] });
  bia = await makeUser(t, { name: "Bia", queueIds: [queueB.id] });
  sale = (await call("/api/closing-reasons", admin, "POST", { name: "Venda", asksValue: true })).json();
  info = (await call("/api/closing-reasons", admin, "POST", { name: "Dúvida" })).json();
  // March in São Paulo (UTC-3): 1 March 02:00 UTC is still 28 February there.
  await closed(ana, queueA.id, "2026-03-10T12:00:00Z", { closingReasonId: sale.id, closingValue: 100.5 });
  await closed(ana, queueA.id, "2026-03-31T23:00:00Z", { closingReasonId: sale.id, closingValue: 200 });
  await closed(bia, queueB.id, "2026-03-15T12:00:00Z", { closingReasonId: sale.id, closingValue: 50.25 });
  await closed(bia, queueB.id, "2026-03-15T13:00:00Z", { closingReasonId: info.id });
  await closed(bia, queueB.id, "2026-03-16T13:00:00Z");
  await closed(ana, queueA.id, "2026-03-01T02:00:00Z", { closingReasonId: sale.id, closingValue: 1000 });
  await closed(ana, queueA.id, "2026-04-01T12:00:00Z", { closingReasonId: sale.id, closingValue: 1000 });
  // Archived later: still reported.
  await call(`/api/closing-reasons/${info.id}`, admin, "PUT", { archived: true });
});
afterAll(() => t.close());

describe("the dashboard's closing reasons", () => {
  it("counts and sums the period's closes per reason, per queue and per agent", async () => {
    const res = await call(`/api/dashboard/closing-reasons?${PERIOD}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json();
    expect(report).toMatchObject({ from: "2026-03-01", to: "2026-03-31" });
    expect(report.byReason).toEqual([
      { reasonId: sale.id, name: "Venda", archived: false, asksValue: true, count: 3, total: 350.75 },
      { reasonId: info.id, name: "Dúvida", archived: true, asksValue: false, count: 1, total: null },
    ]);
    const short = (rows: { count: number; total: number | null; name: string }[], key: string) =>
      rows.map((r) => [(r as unknown as Record<string, unknown>)[key], r.name, r.count, r.total]);
    expect(short(report.byQueue, "queueName")).toEqual([
      ["Suporte", "Dúvida", 1, null],
      ["Suporte", "Venda", 1, 50.25],
      ["Vendas", "Venda", 2, 300.5],
    ]);
    expect(short(report.byUser, "userName")).toEqual([
      ["Ana", "Venda", 2, 300.5],
      ["Bia", "Dúvida", 1, null],
      ["Bia", "Venda", 1, 50.25],
    ]);
  });

  it("filters by queue and agent, and an agent sees only the tickets they may see", async () => {
    const byQueue = (await call(`/api/dashboard/closing-reasons?${PERIOD}&queueId=${queueB.id}`, admin)).json();
    expect(byQueue.byReason.map((r: { name: string; count: number }) => [r.name, r.count])).toEqual([
      ["Dúvida", 1],
      ["Venda", 1],
    ]);
    const byAgent = (await call(`/api/dashboard/closing-reasons?${PERIOD}&userId=${ana.id}`, admin)).json();
    expect(byAgent.byReason).toMatchObject([{ name: "Venda", count: 2, total: 300.5 }]);
    const asAna = (await call(`/api/dashboard/closing-reasons?${PERIOD}`, ana)).json();
    expect(asAna.byReason).toMatchObject([{ name: "Venda", count: 2, total: 300.5 }]);
    expect(asAna.byQueue.map((r: { queueName: string }) => r.queueName)).toEqual(["Vendas"]);
  });

  it("refuses a bad period with 400", async () => {
    const res = await call("/api/dashboard/closing-reasons?from=2026-03-10&to=2026-03-01", admin);
    expect([res.statusCode, res.json().error]).toEqual([400, "ERR_VALIDATION"]);
  });
});

describe("the tickets CSV export", () => {
  it("lists the period's closed tickets with their closing reason and value", async () => {
    const res = await call(`/api/tickets/export?${PERIOD}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toContain("text/csv");
    const [header, ...lines] = res.body.trim().split("\n");
    expect(header).toBe(TICKET_CSV_COLUMNS.join(","));
    expect(header.split(",").slice(-2)).toEqual(["closingReason", "closingValue"]);
    expect(lines).toHaveLength(5);
    const cells = lines.map((l) => l.split(","));
    const reasonAndValue = cells.map((c) => `${c[4]}|${c[5]}|${c[8]}|${c[9]}`);
    expect(reasonAndValue).toEqual([
      "Vendas|Ana|Venda|100.50",
      "Vendas|Ana|Venda|200.00",
      "Suporte|Bia|Venda|50.25",
      "Suporte|Bia|Dúvida|",
      "Suporte|Bia||",
    ]);
    const asBia = await call(`/api/tickets/export?${PERIOD}`, bia);
    expect(asBia.body.trim().split("\n")).toHaveLength(4);
    const ids = cells.map((c) => Number(c[0]));
    const rows = await t.database.db.select({ status: tickets.status }).from(tickets).where(inArray(tickets.id, ids));
    expect(rows.every((r) => r.status === "closed")).toBe(true);
  });
});
