import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";

let t: TestApp;
let admin: TestUser;
let agent: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  agent = await makeUser(t);
});
afterAll(() => t.close());

describe("queues", () => {
  it("lets an admin create, read, update and delete a queue", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: "/api/queue",
      headers: admin.auth,
      payload: { name: "Sales", color: "#B80000", greetingMessage: "Hi!" },
    });
    expect(created.statusCode).toBe(200);
    const queue = created.json();
    expect(queue).toMatchObject({ name: "Sales", color: "#B80000", greetingMessage: "Hi!" });

    const list = await t.app.inject({ method: "GET", url: "/api/queue", headers: agent.auth });
    expect(list.statusCode).toBe(200);
    expect(list.json().map((q: { id: number }) => q.id)).toContain(queue.id);

    const one = await t.app.inject({ method: "GET", url: `/api/queue/${queue.id}`, headers: agent.auth });
    expect(one.json().name).toBe("Sales");

    const updated = await t.app.inject({
      method: "PUT",
      url: `/api/queue/${queue.id}`,
      headers: admin.auth,
      payload: { name: "Sales BR" },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: "Sales BR", color: "#B80000" });

    const removed = await t.app.inject({ method: "DELETE", url: `/api/queue/${queue.id}`, headers: admin.auth });
    expect(removed.statusCode).toBe(200);
    const gone = await t.app.inject({ method: "GET", url: `/api/queue/${queue.id}`, headers: admin.auth });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe("ERR_NO_QUEUE_FOUND");
  });

  it("validates with field paths", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/queue",
      headers: admin.auth,
      payload: { name: "S", color: "#1" },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe("ERR_VALIDATION");
    expect(body.details).toEqual(
      expect.arrayContaining([
        { path: ["name"], message: "Too Short!" },
        { path: ["color"], message: "Too Short!" },
      ]),
    );
  });

  it("refuses unknown fields and wrong types", async () => {
    const unknown = await t.app.inject({
      method: "POST",
      url: "/api/queue",
      headers: admin.auth,
      payload: { name: "Support", color: "#123456", isAdmin: true },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe("ERR_VALIDATION");
    const wrongType = await t.app.inject({
      method: "POST",
      url: "/api/queue",
      headers: admin.auth,
      payload: { name: 42, color: [] },
    });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().details.map((d: { path: string[] }) => d.path[0])).toEqual(expect.arrayContaining(["name", "color"]));
  });

  it("refuses a colour already in use and a duplicate name", async () => {
    const existing = await makeQueue(t, { color: "#ABCDEF" });
    const color = await t.app.inject({
      method: "POST",
      url: "/api/queue",
      headers: admin.auth,
      payload: { name: "Other", color: "#abcdef" },
    });
    expect(color.statusCode).toBe(409);
    expect(color.json().error).toBe("ERR_QUEUE_COLOR_ALREADY_EXISTS");
    const name = await t.app.inject({
      method: "POST",
      url: "/api/queue",
      headers: admin.auth,
      payload: { name: existing.name.toUpperCase(), color: "#FEDCBA" },
    });
    expect(name.statusCode).toBe(400);
    expect(name.json().details[0].path).toEqual(["name"]);
  });

  it("answers 401 without a token and 403 ERR_NO_PERMISSION for agents on writes", async () => {
    const anonymous = await t.app.inject({ method: "GET", url: "/api/queue" });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error).toBe("ERR_SESSION_EXPIRED");
    const queue = await makeQueue(t);
    for (const [method, url] of [
      ["POST", "/api/queue"],
      ["PUT", `/api/queue/${queue.id}`],
      ["DELETE", `/api/queue/${queue.id}`],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: agent.auth,
        payload: method === "DELETE" ? undefined : { name: "Nope", color: "#000001" },
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error).toBe("ERR_NO_PERMISSION");
    }
  });

  it("answers ERR_NO_QUEUE_FOUND on update and delete of an unknown id, and validates ids", async () => {
    const put = await t.app.inject({ method: "PUT", url: "/api/queue/999999", headers: admin.auth, payload: { name: "Ghost" } });
    expect(put.json().error).toBe("ERR_NO_QUEUE_FOUND");
    const del = await t.app.inject({ method: "DELETE", url: "/api/queue/999999", headers: admin.auth });
    expect(del.json().error).toBe("ERR_NO_QUEUE_FOUND");
    const bad = await t.app.inject({ method: "GET", url: "/api/queue/abc", headers: admin.auth });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toEqual(["id"]);
  });
});
