import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";

let t: TestApp;
let agent: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  agent = await makeUser(t);
});
afterAll(() => t.close());

type Method = "GET" | "POST" | "PUT" | "DELETE";
const call = (method: Method, url: string, who?: { auth: { authorization: string } }, payload?: object) =>
  t.app.inject({ method, url, headers: who?.auth, payload });
const create = async (shortcut: string, message: string) => {
  const res = await call("POST", "/api/quickAnswers", agent, { shortcut, message });
  expect(res.statusCode).toBe(200);
  return res.json() as { id: number; shortcut: string; message: string };
};

describe("quick answers", () => {
  it("lets any signed-in user create, read, update and delete one", async () => {
    const created = await create(" hello ", "Hello, how can we help?");
    expect(created).toEqual({ id: expect.any(Number), shortcut: "hello", message: "Hello, how can we help?" });
    const read = await call("GET", `/api/quickAnswers/${created.id}`, agent);
    expect(read.json()).toEqual(created);
    const updated = await call("PUT", `/api/quickAnswers/${created.id}`, agent, { message: "Good morning, tell us more." });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toEqual({ ...created, message: "Good morning, tell us more." });
    const removed = await call("DELETE", `/api/quickAnswers/${created.id}`, agent);
    expect(removed.statusCode).toBe(200);
    const gone = await call("GET", `/api/quickAnswers/${created.id}`, agent);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe("ERR_NO_QUICK_ANSWER_FOUND");
  });

  it("searches shortcut and message and pages by 20", async () => {
    const tag = `q${randomBytes(3).toString("hex")}`;
    for (let i = 0; i < 20; i++) await create(`${tag}${String(i).padStart(2, "0")}`, "A reusable answer text");
    const inMessage = await create("other", `The message mentions ${tag.toUpperCase()} inside`);
    const first = await call("GET", `/api/quickAnswers?searchParam=${tag}`, agent);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ count: 21, hasMore: true });
    expect(first.json().quickAnswers).toHaveLength(20);
    const second = await call("GET", `/api/quickAnswers?searchParam=${tag}&pageNumber=2`, agent);
    expect(second.json()).toMatchObject({ count: 21, hasMore: false });
    const all = [...first.json().quickAnswers, ...second.json().quickAnswers].map((q: { id: number }) => q.id);
    expect(all).toContain(inMessage.id);
    expect(new Set(all).size).toBe(21);
    const none = await call("GET", "/api/quickAnswers?searchParam=zz-no-such-answer-zz", agent);
    expect(none.json()).toEqual({ quickAnswers: [], count: 0, hasMore: false });
  });

  it("validates with field paths", async () => {
    const res = await call("POST", "/api/quickAnswers", agent, { shortcut: "x", message: "short" });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual(
      expect.arrayContaining([
        { path: ["shortcut"], message: "Too Short!" },
        { path: ["message"], message: "Too Short!" },
      ]),
    );
    const long = await call("POST", "/api/quickAnswers", agent, { shortcut: "s".repeat(16), message: "m".repeat(30001) });
    expect(long.json().details).toEqual(
      expect.arrayContaining([
        { path: ["shortcut"], message: "Too Long!" },
        { path: ["message"], message: "Too Long!" },
      ]),
    );
    const existing = await create("valid", "A valid message");
    const update = await call("PUT", `/api/quickAnswers/${existing.id}`, agent, { shortcut: "" });
    expect(update.statusCode).toBe(400);
    expect(update.json().details).toEqual([{ path: ["shortcut"], message: "Required" }]);
  });

  it("answers ERR_NO_QUICK_ANSWER_FOUND on every route for an unknown id", async () => {
    for (const [method, payload] of [["GET"], ["PUT", { message: "Updated message" }], ["DELETE"]] as const) {
      const res = await call(method, "/api/quickAnswers/999999", agent, payload);
      expect(res.statusCode, method).toBe(404);
      expect(res.json().error).toBe("ERR_NO_QUICK_ANSWER_FOUND");
    }
  });

  it("answers 401 without a session on every route", async () => {
    const existing = await create("anon", "Nobody may read this");
    for (const [method, url] of [
      ["GET", "/api/quickAnswers"],
      ["GET", `/api/quickAnswers/${existing.id}`],
      ["POST", "/api/quickAnswers"],
      ["PUT", `/api/quickAnswers/${existing.id}`],
      ["DELETE", `/api/quickAnswers/${existing.id}`],
    ] as const) {
      const res = await call(
        method,
        url,
        undefined,
        method === "POST" || method === "PUT" ? { message: "whatever text" } : undefined,
      );
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().error).toBe("ERR_SESSION_EXPIRED");
    }
  });
});
