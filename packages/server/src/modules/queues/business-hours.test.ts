import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, expectNoLeak, type TestApp } from "../../../test/harness.js";

let t: TestApp;
let admin: TestUser;
let agent: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  agent = await makeUser(t);
});
afterAll(() => t.close());

const schedule = {
  timezone: "America/Sao_Paulo",
  days: [
    { weekday: 1, from: "09:00", to: "12:00" },
    { weekday: 1, from: "13:00", to: "18:00" },
    { weekday: 5, from: "22:00", to: "24:00" },
  ],
  outOfHoursMessage: "Voltamos às 9h.",
  holidays: [{ date: "2026-12-25", name: "Natal" }, { date: "2026-01-01" }],
};

describe("queue business hours", () => {
  it("an admin sets, reads, replaces and removes a schedule; absent means always open", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: "/api/queue",
      headers: admin.auth,
      payload: { name: "Horário", color: "#0A0B0C", schedule },
    });
    expect(created.statusCode, created.body).toBe(200);
    const queue = created.json();
    expect(queue.schedule).toEqual(schedule);

    const read = await t.app.inject({ method: "GET", url: `/api/queue/${queue.id}`, headers: agent.auth });
    expect(read.json().schedule).toEqual(schedule);

    const closedAllWeek = { timezone: "UTC", days: [], outOfHoursMessage: "" };
    const replaced = await t.app.inject({
      method: "PUT",
      url: `/api/queue/${queue.id}`,
      headers: admin.auth,
      payload: { schedule: closedAllWeek },
    });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().schedule).toEqual({ ...closedAllWeek, holidays: [] });

    // A change of name leaves the schedule alone.
    const renamed = await t.app.inject({
      method: "PUT",
      url: `/api/queue/${queue.id}`,
      headers: admin.auth,
      payload: { name: "Horário 2" },
    });
    expect(renamed.json().schedule).toEqual({ ...closedAllWeek, holidays: [] });

    const removed = await t.app.inject({
      method: "PUT",
      url: `/api/queue/${queue.id}`,
      headers: admin.auth,
      payload: { schedule: null },
    });
    expect(removed.json().schedule).toBeNull();

    const plain = await t.app.inject({
      method: "POST",
      url: "/api/queue",
      headers: admin.auth,
      payload: { name: "Sempre", color: "#0D0E0F" },
    });
    expect(plain.json().schedule).toBeNull();
  });

  it("only admins set a schedule", async () => {
    const queue = await makeQueue(t);
    const res = await t.app.inject({ method: "PUT", url: `/api/queue/${queue.id}`, headers: agent.auth, payload: { schedule } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_NO_PERMISSION");
  });

  it.each([
    ["an unknown time zone", { ...schedule, timezone: "America/Atlantis" }, ["schedule", "timezone"]],
    ["a weekday of 7", { ...schedule, days: [{ weekday: 7, from: "09:00", to: "10:00" }] }, ["schedule", "days", 0, "weekday"]],
    ["a time past 23:59", { ...schedule, days: [{ weekday: 1, from: "09:00", to: "25:00" }] }, ["schedule", "days", 0, "to"]],
    [
      "an end before its start",
      { ...schedule, days: [{ weekday: 2, from: "18:00", to: "08:00" }] },
      ["schedule", "days", 0, "to"],
    ],
    [
      "overlapping intervals",
      {
        ...schedule,
        days: [
          { weekday: 2, from: "08:00", to: "12:00" },
          { weekday: 2, from: "11:59", to: "14:00" },
        ],
      },
      ["schedule", "days", 1, "from"],
    ],
    ["a holiday that is no date", { ...schedule, holidays: [{ date: "2026-02-29" }] }, ["schedule", "holidays", 0, "date"]],
    ["a missing time zone", { days: [], outOfHoursMessage: "" }, ["schedule", "timezone"]],
    [
      "a string weekday",
      { ...schedule, days: [{ weekday: "1", from: "09:00", to: "10:00" }] },
      ["schedule", "days", 0, "weekday"],
    ],
  ])("answers 400 for %s", async (_label, value, path) => {
    const queue = await makeQueue(t);
    const res = await t.app.inject({
      method: "PUT",
      url: `/api/queue/${queue.id}`,
      headers: admin.auth,
      payload: { schedule: value },
    });
    expect(res.statusCode).toBe(400);
    expectNoLeak(res.body);
    const body = res.json();
    expect(body.error).toBe("ERR_VALIDATION");
    expect(body.details.map((d: { path: unknown[] }) => d.path)).toContainEqual(path);
  });

  it("describes the schedule in the OpenAPI document", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(res.statusCode).toBe(200);
    expect(JSON.stringify(res.json())).toContain("outOfHoursMessage");
  });
});
