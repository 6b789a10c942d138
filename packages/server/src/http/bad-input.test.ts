import Fastify, { type LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAdmin, makeContact, makeQueue, makeUser, type TestUser } from "../../test/factories.js";
import { createTestApp, expectNoLeak, type TestApp } from "../../test/harness.js";
import { tickets } from "../db/schema.js";
import { frameworkErrorHandler } from "./error-handler.js";

let t: TestApp;
let admin: TestUser;
let ids: { user: number; queue: number; contact: number; quickAnswer: number };

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  const user = await makeUser(t);
  const queue = await makeQueue(t);
  const contact = await makeContact(t);
  const qa = await t.app.inject({
    method: "POST",
    url: "/api/quickAnswers",
    headers: admin.auth,
    payload: { shortcut: "bad", message: "A quick answer for bad input" },
  });
  ids = { user: user.id, queue: queue.id, contact: contact.id, quickAnswer: qa.json().id };
});
afterAll(() => t.close());

type Method = "POST" | "PUT";
/** Every JSON write route of the foundation, with a valid body to start from. */
const writes = (): { method: Method; url: string; valid: Record<string, unknown>; text: string[] }[] => [
  { method: "POST", url: "/api/auth/login", valid: { email: "a@b.co", password: "secret" }, text: ["email", "password"] },
  {
    method: "POST",
    url: "/api/auth/signup",
    valid: { name: "Name", email: "a@b.co", password: "secret" },
    text: ["name", "email", "password"],
  },
  {
    method: "POST",
    url: "/api/users",
    valid: { name: "Name", email: "a@b.co", password: "secret" },
    text: ["name", "email", "password"],
  },
  { method: "PUT", url: `/api/users/${ids.user}`, valid: { name: "Name" }, text: ["name", "email", "password"] },
  { method: "POST", url: "/api/queue", valid: { name: "Name", color: "#123" }, text: ["name", "color", "greetingMessage"] },
  { method: "PUT", url: `/api/queue/${ids.queue}`, valid: { name: "Name" }, text: ["name", "color", "greetingMessage"] },
  { method: "POST", url: "/api/contacts", valid: { name: "Name", number: "5511999990000" }, text: ["name", "number", "email"] },
  { method: "PUT", url: `/api/contacts/${ids.contact}`, valid: { name: "Name" }, text: ["name", "number", "email"] },
  {
    method: "POST",
    url: "/api/quickAnswers",
    valid: { shortcut: "hi", message: "Hello there" },
    text: ["shortcut", "message"],
  },
  { method: "PUT", url: `/api/quickAnswers/${ids.quickAnswer}`, valid: { shortcut: "hi" }, text: ["shortcut", "message"] },
  { method: "PUT", url: "/api/settings/call", valid: { value: "enabled" }, text: ["value"] },
];

function expectClientError(res: LightMyRequestResponse, label: string, status?: number) {
  expect(res.statusCode, `${label}: ${res.body}`).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, `${label}: ${res.body}`).toBeLessThan(500);
  if (status) expect(res.statusCode, label).toBe(status);
  expect(res.json().error, label).toMatch(/^ERR_[A-Z_]+$/);
  expectNoLeak(res.body);
}

const send = (method: Method, url: string, body: string | object, contentType = "application/json") =>
  t.app.inject({
    method,
    url,
    headers: { ...admin.auth, "content-type": contentType },
    payload: typeof body === "string" ? body : JSON.stringify(body),
  });

describe("bad input is a 4xx with a code, never a 500", () => {
  it("malformed and empty JSON", async () => {
    for (const { method, url } of writes()) {
      for (const body of ['{"name": "x",', "{'a':1}", "nul", ""]) {
        const res = await send(method, url, body);
        expectClientError(res, `${method} ${url} ${JSON.stringify(body)}`, 400);
        expect(res.json().error).toBe("ERR_VALIDATION");
      }
    }
  });

  it("JSON that is not an object", async () => {
    for (const { method, url } of writes()) {
      for (const body of ["null", "[]", '"text"', "42", "true"]) {
        expectClientError(await send(method, url, body), `${method} ${url} ${body}`, 400);
      }
    }
  });

  it("wrong types in every text field, with the field path", async () => {
    for (const { method, url, valid, text } of writes()) {
      for (const field of text) {
        // greetingMessage may be null on purpose (the form sends null for "none").
        for (const wrong of field === "greetingMessage" ? [42, true, [], {}] : [42, true, [], {}, null]) {
          const res = await send(method, url, { ...valid, [field]: wrong });
          expectClientError(res, `${method} ${url} ${field}=${JSON.stringify(wrong)}`, 400);
          expect(res.json().details?.[0]?.path?.[0], `${method} ${url} ${field}`).toBe(field);
        }
      }
    }
  });

  it("unknown fields and prototype pollution attempts", async () => {
    for (const { method, url, valid } of writes()) {
      const unknown = await send(method, url, { ...valid, isAdmin: true });
      expectClientError(unknown, `${method} ${url} unknown field`, 400);
      const proto = await send(method, url, `{"__proto__": {"profile": "admin"}, "x": 1}`);
      expectClientError(proto, `${method} ${url} __proto__`, 400);
      const ctor = await send(method, url, `{"constructor": {"prototype": {"profile": "admin"}}}`);
      expectClientError(ctor, `${method} ${url} constructor`, 400);
    }
  });

  it("a body over 1 MiB is 413; a long string under the limit is 400 Too Long", async () => {
    const huge = "x".repeat(1024 * 1024 + 10);
    const longText = "y".repeat(512 * 1024);
    for (const { method, url, valid, text } of writes()) {
      const tooLarge = await send(method, url, { ...valid, [text[0]]: huge });
      expectClientError(tooLarge, `${method} ${url} 1 MiB`, 413);
      for (const field of text) {
        const res = await send(method, url, { ...valid, [field]: longText });
        expectClientError(res, `${method} ${url} ${field} long`, 400);
        expect(res.json().details, `${method} ${url} ${field}`).toContainEqual({ path: [field], message: "Too Long!" });
      }
    }
  });

  it("NUL bytes and lone surrogates in text", async () => {
    for (const { method, url, valid, text } of writes()) {
      for (const field of text) {
        for (const odd of ["a\u0000bcdefghij", "ab\ud800cdefgh"]) {
          // A password may hold any character (only its hash is stored); nothing may answer 500.
          const res = await send(method, url, { ...valid, [field]: odd });
          const label = `${method} ${url} ${field} ${JSON.stringify(odd)}`;
          expect(res.statusCode, `${label}: ${res.body}`).toBeLessThan(500);
          if (res.statusCode >= 400) expectClientError(res, label);
        }
      }
    }
    const search = await t.app.inject({ method: "GET", url: "/api/contacts?searchParam=%00", headers: admin.auth });
    expectClientError(search, "search NUL");
  });

  it("a body of another content type", async () => {
    for (const { method, url } of writes()) {
      // text/plain parses to a string, which no route accepts as its body.
      expectClientError(await send(method, url, "name=x", "text/plain"), `${method} ${url} text/plain`, 400);
      expectClientError(await send(method, url, "name=x", "application/x-www-form-urlencoded"), `${method} ${url} form`, 415);
    }
  });

  it("ids that are not positive 32-bit integers", async () => {
    const routes = [
      ["GET", "/api/users/"],
      ["PUT", "/api/users/"],
      ["DELETE", "/api/users/"],
      ["GET", "/api/queue/"],
      ["PUT", "/api/queue/"],
      ["DELETE", "/api/queue/"],
      ["GET", "/api/contacts/"],
      ["PUT", "/api/contacts/"],
      ["DELETE", "/api/contacts/"],
      ["GET", "/api/quickAnswers/"],
      ["PUT", "/api/quickAnswers/"],
      ["DELETE", "/api/quickAnswers/"],
      ["GET", "/api/tickets/"],
      ["PUT", "/api/tickets/"],
      ["DELETE", "/api/tickets/"],
      ["GET", "/api/whatsapp/"],
      ["GET", "/api/messages/"],
      ["POST", "/api/simulator/"],
    ] as const;
    const odd = ["abc", "0", "-1", "1.5", "2147483648", "99999999999999999999", "1e400", "%20", "NaN", "%00"];
    // Numbers in other spellings: each would otherwise reach the record whose id they evaluate to.
    const spellings = ["0x10", "%2016", "16%20", "%0916", "1e1", "016", "+16", "0b1", "0o7", "1_0", "%D9%A1"];
    // A route's 21 requests at once: 378 in turn outlast the test's timeout on a loaded machine.
    for (const [method, base] of routes) {
      await Promise.all(
        [...odd, ...spellings].map(async (id) => {
          const url = base === "/api/simulator/" ? `${base}${id}/inbound` : `${base}${id}`;
          const res = await t.app.inject({ method, url, headers: admin.auth, payload: method === "GET" ? undefined : {} });
          expectClientError(res, `${method} ${url}`, 400);
          expect(res.json().details?.[0]?.path, `${method} ${url}`).toHaveLength(1);
        }),
      );
    }
  });

  it("DELETE /api/tickets/0x10 is refused, not a delete of ticket 16", async () => {
    const contact = await makeContact(t);
    const [ticket] = await t.database.db.insert(tickets).values({ contactId: contact.id, status: "pending" }).returning();
    for (const spelling of [`0x${ticket.id.toString(16)}`, `%20${ticket.id}`, `0${ticket.id}`]) {
      const res = await t.app.inject({ method: "DELETE", url: `/api/tickets/${spelling}`, headers: admin.auth });
      expectClientError(res, spelling, 400);
      expect(res.json().error).toBe("ERR_VALIDATION");
    }
    const still = await t.app.inject({ method: "GET", url: `/api/tickets/${ticket.id}`, headers: admin.auth });
    expect(still.statusCode).toBe(200);
  });

  it("query strings: unknown, repeated, wrong-typed and oversized parameters", async () => {
    for (const list of ["/api/users", "/api/contacts", "/api/quickAnswers"]) {
      for (const query of [
        "pageNumber=abc",
        "pageNumber=-3",
        "pageNumber=1&pageNumber=2",
        "searchParam=a&searchParam=b",
        `searchParam=${"s".repeat(201)}`,
        "pageNumber=1e400",
        "unknown=1",
      ]) {
        const res = await t.app.inject({ method: "GET", url: `${list}?${query}`, headers: admin.auth });
        expectClientError(res, `${list}?${query.slice(0, 40)}`, 400);
      }
      const farPage = await t.app.inject({ method: "GET", url: `${list}?pageNumber=100000`, headers: admin.auth });
      expect(farPage.statusCode).toBe(200);
      expect(farPage.json().hasMore).toBe(false);
    }
  });

  it("a bad setting key", async () => {
    for (const key of ["x".repeat(100), "%00", "..%2F..%2Fetc"]) {
      const res = await send("PUT", `/api/settings/${key}`, { value: "enabled" });
      expectClientError(res, `setting ${key.slice(0, 20)}`);
    }
  });
});

describe("errors the router raises before any route", () => {
  it("are 4xx without internals", async () => {
    for (const url of [`/api/settings/${"x".repeat(101)}`, "/api/users/%E0%A4%A"]) {
      const res = await t.app.inject({ method: "GET", url, headers: admin.auth });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
      expectNoLeak(res.body);
    }
  });

  it("answer with a code through frameworkErrorHandler", async () => {
    const app = Fastify({ logger: false, maxParamLength: 10, frameworkErrors: frameworkErrorHandler });
    app.get("/x/:id", async () => ({ ok: true }));
    try {
      const long = await app.inject({ method: "GET", url: `/x/${"1".repeat(11)}` });
      expect(long.statusCode).toBe(414);
      expect(long.json()).toMatchObject({ error: "ERR_URL_TOO_LONG" });
      const badUrl = await app.inject({ method: "GET", url: "/x/%E0%A4%A" });
      expect(badUrl.statusCode).toBe(400);
      expect(badUrl.json()).toEqual({ error: "ERR_VALIDATION", message: "Invalid URL" });
    } finally {
      await app.close();
    }
  });
});

describe("unknown paths and the API docs", () => {
  it("answers 404 ERR_NOT_FOUND for an unknown /api path or method", async () => {
    for (const [method, url] of [
      ["GET", "/api/nope"],
      ["POST", "/api/users/1/extra"],
      ["PATCH", "/api/users/1"],
      ["GET", "/api"],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: admin.auth });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toMatchObject({ error: "ERR_NOT_FOUND" });
    }
  });

  it("serves the OpenAPI document listing the routes, and its UI", async () => {
    const json = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(json.statusCode).toBe(200);
    const paths = Object.keys(json.json().paths);
    for (const path of [
      "/api/auth/login",
      "/api/auth/refresh_token",
      "/api/auth/logout",
      "/api/auth/signup",
      "/api/users",
      "/api/users/{id}",
      "/api/queue",
      "/api/queue/{id}",
      "/api/contacts",
      "/api/contacts/{id}",
      "/api/quickAnswers",
      "/api/quickAnswers/{id}",
      "/api/settings",
      "/api/settings/{key}",
      "/api/health",
    ]) {
      expect(paths, path).toContain(path);
    }
    // Request bodies come from the zod schemas.
    const login = json.json().paths["/api/auth/login"].post.requestBody.content["application/json"].schema;
    expect(Object.keys(login.properties).sort()).toEqual(["email", "password"]);

    const ui = await t.app.inject({ method: "GET", url: "/api/docs" });
    const page = ui.statusCode === 302 ? await t.app.inject({ method: "GET", url: ui.headers.location as string }) : ui;
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
  });
});

// A database that is down (503) and other unexpected failures (500 without internals): database-outage.test.ts.
