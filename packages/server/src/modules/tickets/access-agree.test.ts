import { seesTicket } from "@zapdesk/core";
import { and, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAdmin, makeContact, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { tickets } from "../../db/schema.js";
import { roomsFor, ticketRooms } from "../../realtime/rooms.js";
import { updateSetting } from "../settings/settings.repo.js";
import { ticketAccessWhere, ticketVisibleWhere } from "./access.js";
import { listTickets, ticketListWhere } from "./ticket-list.repo.js";
import { scopeOf } from "./tickets.service.js";

/**
 * "Who may see this ticket" is one rule written three ways: core's predicate, the lists' SQL and
 * the socket rooms. On a matrix of users and tickets, the three must give the same answers.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ start: false });
});
afterAll(() => t.close());

type Row = typeof tickets.$inferSelect;

describe("ticket access: the predicate, the SQL and the socket rooms agree", () => {
  it("on every user × ticket × showChoosingQueue", async () => {
    const sales = await makeQueue(t);
    const support = await makeQueue(t);
    const users: Record<string, TestUser & { queueIds: number[] }> = {
      admin: { ...(await makeAdmin(t)), queueIds: [] },
      salesAgent: { ...(await makeUser(t, { queueIds: [sales.id] })), queueIds: [sales.id] },
      supportAgent: { ...(await makeUser(t, { queueIds: [support.id] })), queueIds: [support.id] },
      bothAgent: { ...(await makeUser(t, { queueIds: [sales.id, support.id] })), queueIds: [sales.id, support.id] },
      noQueueAgent: { ...(await makeUser(t)), queueIds: [] },
    };
    const { salesAgent, supportAgent } = users;
    const shapes: Record<string, Partial<Row>> = {
      salesPending: { status: "pending", queueId: sales.id, userId: null },
      salesOpenOther: { status: "open", queueId: sales.id, userId: supportAgent.id },
      supportOpenOwn: { status: "open", queueId: support.id, userId: salesAgent.id },
      salesClosed: { status: "closed", queueId: sales.id, userId: salesAgent.id },
      noQueuePending: { status: "pending", queueId: null, userId: null },
      noQueueChoosing: { status: "pending", queueId: null, userId: null, menuSentAt: new Date() },
      noQueueOpenOther: { status: "open", queueId: null, userId: supportAgent.id },
      noQueueMenuButAssigned: { status: "open", queueId: null, userId: salesAgent.id, menuSentAt: new Date() },
    };
    const rows: Record<string, Row> = {};
    for (const [name, shape] of Object.entries(shapes)) {
      const contact = await makeContact(t);
      [rows[name]] = await t.database.db
        .insert(tickets)
        .values({ contactId: contact.id, ...shape })
        .returning();
    }
    const ids = Object.values(rows).map((row) => row.id);
    const nameOf = new Map(Object.entries(rows).map(([name, row]) => [row.id, name]));
    const names = (found: Iterable<number>) =>
      [...new Set([...found].filter((id) => nameOf.has(id)))].map((id) => nameOf.get(id)).sort();

    for (const agentsSeeChoosing of [false, true]) {
      for (const [who, user] of Object.entries(users)) {
        const admin = user.profile === "admin";
        const reader = { id: user.id, admin, queueIds: user.queueIds, hideChoosing: !admin && !agentsSeeChoosing };
        const label = `${who}, showChoosingQueue ${agentsSeeChoosing ? "enabled" : "disabled"}`;

        const byPredicate = names(
          Object.values(rows)
            .filter((row) => seesTicket(user, row, agentsSeeChoosing))
            .map((r) => r.id),
        );

        const viaWhere = await t.database.db
          .select({ id: tickets.id })
          .from(tickets)
          .where(and(inArray(tickets.id, ids), ticketVisibleWhere(reader)));
        const viaListWhere = await t.database.db
          .select({ id: tickets.id })
          .from(tickets)
          .where(and(inArray(tickets.id, ids), ticketListWhere({ actor: reader, showAll: true })));
        // The inbox's prepared statement (placeholders, not literals).
        const page = await listTickets(t.database.db, { actor: reader, showAll: true }, { limit: 10_000, offset: 0 });

        const rooms = new Set(roomsFor({ ...user, queueIds: user.queueIds }, agentsSeeChoosing));
        const byRooms = names(
          Object.values(rows)
            .filter((row) => ticketRooms(scopeOf(row)).some((room) => rooms.has(room)))
            .map((r) => r.id),
        );

        // The statements that read the setting themselves (an agent's inbox and search), the setting
        // stored as this round has it.
        await updateSetting(t.database.db, "showChoosingQueue", agentsSeeChoosing ? "enabled" : "disabled");
        const bySetting = { ...reader, hideChoosing: admin ? false : ("setting" as const) };
        const viaSettingWhere = await t.database.db
          .select({ id: tickets.id })
          .from(tickets)
          .where(and(inArray(tickets.id, ids), ticketVisibleWhere(bySetting)));
        const settingPage = await listTickets(t.database.db, { actor: bySetting, showAll: true }, { limit: 10_000, offset: 0 });

        expect(names(viaWhere.map((r) => r.id)), `SQL, ${label}`).toEqual(byPredicate);
        expect(names(viaSettingWhere.map((r) => r.id)), `SQL reading the setting, ${label}`).toEqual(byPredicate);
        expect(names(settingPage.rows.map((r) => r.ticket.id)), `inbox statement reading the setting, ${label}`).toEqual(
          byPredicate,
        );
        expect(names(viaListWhere.map((r) => r.id)), `list WHERE, ${label}`).toEqual(byPredicate);
        expect(names(page.rows.map((r) => r.ticket.id)), `inbox statement, ${label}`).toEqual(byPredicate);
        expect(byRooms, `rooms, ${label}`).toEqual(byPredicate);
      }
    }

    await updateSetting(t.database.db, "showChoosingQueue", "disabled");

    // The access part alone (notes' mentions, schedules) is canAccessTicket, the greeting menu aside.
    const access = await t.database.db
      .select({ id: tickets.id })
      .from(tickets)
      .where(and(inArray(tickets.id, ids), ticketAccessWhere({ id: supportAgent.id, admin: false, queueIds: [support.id] })));
    expect(names(access.map((r) => r.id))).toEqual(
      [
        "supportOpenOwn",
        "salesOpenOther",
        "noQueuePending",
        "noQueueChoosing",
        "noQueueOpenOther",
        "noQueueMenuButAssigned",
      ].sort(),
    );
  });
});
