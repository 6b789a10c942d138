import { readFileSync } from "node:fs";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { botBodies, customerNumber, customerWrites, makeSimulatorConnection, ticketRowOf } from "../../../test/conversation.js";
import { makeAdmin, makeQueue, type TestUser } from "../../../test/factories.js";
import { createTestApp, manualClock, type TestApp } from "../../../test/harness.js";
import { menuNodes } from "../../db/schema.js";

// Issue 23 §3: migration 0036 turns each connection's one-level queue menu into its tree: the
// customer gets the same text, and a customer at the old menu answers it as before.
const clock = manualClock(new Date("2026-03-02T12:00:00Z"));
let t: TestApp;
let admin: TestUser;

/** The migration's data statements (after its tables), run as on an upgrade. */
const DATA = readFileSync(new URL("../../db/migrations/0036_menus.sql", import.meta.url), "utf8")
  .split("--> statement-breakpoint")
  .filter((statement) => /^\s*(-- [^\n]*\n)*\s*(INSERT|UPDATE)/.test(statement));

beforeAll(async () => {
  t = await createTestApp({ clock, accessTtlSeconds: 365 * 86_400 });
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

async function ticketOf(number: string) {
  const ticket = await ticketRowOf(t, number);
  if (!ticket) throw new Error(`no ticket for ${number}`);
  return ticket;
}

const botBodiesOf = (ticketId: number) => botBodies(t, ticketId);

describe("migration 0036", () => {
  it("gives a connection's one-level menu as a tree with the same text, and keeps customers at it", async () => {
    expect(DATA).toHaveLength(3);
    const sales = await makeQueue(t, { name: "Vendas", greetingMessage: "Vendas, {{name}}!" });
    const support = await makeQueue(t, { name: "Suporte" });
    const single = await makeQueue(t, { name: "Única" });
    const connection = await makeSimulatorConnection(t, admin, {
      queueIds: [sales.id, support.id],
      greetingMessage: "Olá {{name}}, escolha um setor:",
    });
    const alone = await makeSimulatorConnection(t, admin, { queueIds: [single.id] });

    // Before: no tree, the one-level menu of the queues.
    const before = customerNumber();
    await customerWrites(t, admin, connection.id, { from: before, name: "Bia", body: "oi" });
    const [oldMenu] = await botBodiesOf((await ticketOf(before)).id);
    expect(oldMenu).toBe("Olá Bia, escolha um setor:\n*1* - Vendas\n*2* - Suporte");

    for (const statement of DATA) await t.database.db.execute(sql.raw(statement));

    const nodes = await t.database.db
      .select()
      .from(menuNodes)
      .where(eq(menuNodes.whatsappId, connection.id))
      .orderBy(asc(menuNodes.id));
    expect(nodes.map((n) => [n.target, n.label, n.queueId])).toEqual([
      ["menu", "", null],
      ["queue", "Vendas", sales.id],
      ["queue", "Suporte", support.id],
    ]);
    // One queue: no menu then, no tree now.
    expect(await t.database.db.select().from(menuNodes).where(eq(menuNodes.whatsappId, alone.id))).toEqual([]);
    // The customer at the old menu is at the tree's root.
    expect((await ticketOf(before)).menuNodeId).toBe(nodes[0].id);

    // After: a new customer gets the same text; the old one's "2" picks the same queue.
    const after = customerNumber();
    await customerWrites(t, admin, connection.id, { from: after, name: "Bia", body: "oi" });
    expect(await botBodiesOf((await ticketOf(after)).id)).toEqual([oldMenu]);
    await customerWrites(t, admin, connection.id, { from: before, name: "Bia", body: "2" });
    expect((await ticketOf(before)).queueId).toBe(support.id);
    await customerWrites(t, admin, connection.id, { from: after, name: "Bia", body: "1" });
    expect((await ticketOf(after)).queueId).toBe(sales.id);
    expect(await botBodiesOf((await ticketOf(after)).id)).toEqual([oldMenu, "Vendas, Bia!"]);
  });
});
