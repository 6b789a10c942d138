import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAdmin, makeContact, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, manualClock, type TestApp } from "../../../test/harness.js";
import { messages, queues, tickets } from "../../db/schema.js";

const clock = manualClock(new Date("2026-01-20T15:00:00Z"));
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ clock, accessTtlSeconds: 365 * 86_400 });
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

const MINUTE = 60_000;

async function ticketAnswered(queueId: number | null, createdAt: string, replies: { at: string; fromBot?: boolean }[]) {
  const contact = await makeContact(t);
  const [ticket] = await t.database.db
    .insert(tickets)
    .values({ contactId: contact.id, queueId, status: "open", createdAt: new Date(createdAt), updatedAt: new Date(createdAt) })
    .returning();
  await t.database.db.insert(messages).values({
    ticketId: ticket.id,
    contactId: contact.id,
    body: "oi",
    fromMe: false,
    createdAt: new Date(createdAt),
  });
  for (const reply of replies) {
    await t.database.db.insert(messages).values({
      ticketId: ticket.id,
      body: "resposta",
      fromMe: true,
      fromBot: reply.fromBot ?? false,
      createdAt: new Date(reply.at),
    });
  }
  return ticket;
}

describe("dashboard waiting time", () => {
  it("counts only the queue's business time between creation and the first answer by an agent", async () => {
    const office = await makeQueue(t);
    await t.database.db
      .update(queues)
      .set({
        schedule: {
          timezone: "America/Sao_Paulo",
          days: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, from: "09:00", to: "18:00" })),
          outOfHoursMessage: "Fechado",
          holidays: [],
        },
      })
      .where(eq(queues.id, office.id));
    const always = await makeQueue(t);
    // Friday 17:50 → Monday 09:05 (São Paulo): 15 minutes of business time; the bot's notice is no answer.
    await ticketAnswered(office.id, "2026-01-09T20:50:00Z", [
      { at: "2026-01-09T21:00:00Z", fromBot: true },
      { at: "2026-01-12T12:05:00Z" },
      { at: "2026-01-12T12:30:00Z" },
    ]);
    // No schedule: every minute counts (30).
    await ticketAnswered(always.id, "2026-01-13T10:00:00Z", [{ at: "2026-01-13T10:30:00Z" }]);
    // Still waiting; and one of another month.
    await ticketAnswered(office.id, "2026-01-14T10:00:00Z", [{ at: "2026-01-14T10:01:00Z", fromBot: true }]);
    await ticketAnswered(always.id, "2026-02-02T10:00:00Z", [{ at: "2026-02-02T12:00:00Z" }]);

    const res = await t.app.inject({
      method: "GET",
      url: "/api/dashboard",
      headers: admin.auth,
      query: { month: "2026-01", tz: "America/Sao_Paulo" },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().waiting).toEqual({ answered: 2, averageMs: 22.5 * MINUTE, unanswered: 1 });

    // An agent of the scheduled queue only sees its tickets.
    const agent = await makeUser(t, { queueIds: [office.id] });
    const mine = await t.app.inject({
      method: "GET",
      url: "/api/dashboard",
      headers: agent.auth,
      query: { month: "2026-01", tz: "America/Sao_Paulo" },
    });
    expect(mine.json().waiting).toEqual({ answered: 1, averageMs: 15 * MINUTE, unanswered: 1 });

    const empty = await t.app.inject({ method: "GET", url: "/api/dashboard", headers: admin.auth, query: { month: "2025-06" } });
    expect(empty.json().waiting).toEqual({ answered: 0, averageMs: null, unanswered: 0 });
  });
});
