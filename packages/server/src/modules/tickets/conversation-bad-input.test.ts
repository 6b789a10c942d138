import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, listTickets, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeContact, type TestUser } from "../../../test/factories.js";
import { createTestApp, expectNoLeak, type TestApp } from "../../../test/harness.js";

let t: TestApp;
let admin: TestUser;
let ids: { connection: number; ticket: number; contact: number };
let apiToken: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  const connection = await makeSimulatorConnection(t, admin, { isDefault: true });
  const from = customerNumber();
  await customerWrites(t, admin, connection.id, { from, body: "hello" });
  const ticket = (await listTickets(t, admin, { showAll: "true" })).tickets.find((x) => x.contact.number === from)!;
  await t.app.inject({
    method: "PUT",
    url: `/api/tickets/${ticket.id}`,
    headers: admin.auth,
    payload: { status: "open", userId: admin.id },
  });
  const contact = await makeContact(t);
  ids = { connection: connection.id, ticket: ticket.id, contact: contact.id };
  const settings = await t.app.inject({ method: "GET", url: "/api/settings", headers: admin.auth });
  apiToken = settings.json().find((s: { key: string }) => s.key === "userApiToken").value;
});
afterAll(() => t.close());

type Method = "POST" | "PUT";
const writes = (): { method: Method; url: string; valid: Record<string, unknown>; fields: string[]; auth?: string }[] => [
  {
    method: "POST",
    url: "/api/whatsapp",
    valid: { name: "Conn", provider: "simulator" },
    fields: ["name", "greetingMessage", "farewellMessage"],
  },
  { method: "PUT", url: `/api/whatsapp/${ids.connection}`, valid: { name: "Conn" }, fields: ["name", "greetingMessage"] },
  { method: "POST", url: "/api/tickets", valid: { contactId: ids.contact }, fields: ["contactId", "status"] },
  { method: "PUT", url: `/api/tickets/${ids.ticket}`, valid: { userId: admin.id }, fields: ["status", "userId", "queueId"] },
  { method: "POST", url: `/api/messages/${ids.ticket}`, valid: { body: "hi" }, fields: ["body"] },
  { method: "POST", url: "/api/contact", valid: { name: "Vcard", number: "5511999998888" }, fields: ["name", "number"] },
  {
    method: "POST",
    url: "/api/messages/send",
    valid: { number: "5511999998888", body: "x" },
    fields: ["number", "body"],
    auth: "api",
  },
  {
    method: "POST",
    url: `/api/simulator/${ids.connection}/inbound`,
    valid: { from: "5511999998888", body: "x" },
    fields: ["from", "body"],
  },
  { method: "POST", url: `/api/simulator/${ids.connection}/ack`, valid: { id: "X", ack: 2 }, fields: ["id", "ack"] },
  { method: "POST", url: `/api/simulator/${ids.connection}/edit`, valid: { id: "X", body: "y" }, fields: ["id", "body"] },
];

function expectClientError(res: LightMyRequestResponse, label: string) {
  expect(res.statusCode, `${label}: ${res.body}`).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, `${label}: ${res.body}`).toBeLessThan(500);
  expect(res.json().error, label).toMatch(/^ERR_[A-Z_]+$/);
  expectNoLeak(res.body);
}

const send = (route: ReturnType<typeof writes>[number], body: string) =>
  t.app.inject({
    method: route.method,
    url: route.url,
    headers: {
      authorization: route.auth === "api" ? `Bearer ${apiToken}` : admin.auth.authorization,
      "content-type": "application/json",
    },
    payload: body,
  });

describe("bad input on the conversation routes is a 4xx with a code", () => {
  it("malformed JSON, non-objects, wrong types, unknown fields and oversized strings", async () => {
    for (const route of writes()) {
      const label = `${route.method} ${route.url}`;
      for (const body of ['{"body": "x",', "[]", "42", '"text"', "null"])
        expectClientError(await send(route, body), `${label} ${body}`);
      for (const field of route.fields) {
        for (const value of [12345, { nested: true }, ["a"], true]) {
          expectClientError(
            await send(route, JSON.stringify({ ...route.valid, [field]: value })),
            `${label} ${field}=${JSON.stringify(value)}`,
          );
        }
      }
      expectClientError(
        await send(route, JSON.stringify({ ...route.valid, isAdmin: true, __proto__: { x: 1 } })),
        `${label} unknown`,
      );
      const huge = await send(route, JSON.stringify({ ...route.valid, [route.fields[0]]: "x".repeat(1024 * 1024) }));
      expectClientError(huge, `${label} 1 MB`);
      // Over the 1 MiB body limit (413), or within a route's larger limit but over the field's length (400).
      expect([400, 413]).toContain(huge.statusCode);
    }
  });

  it("ids and query strings", async () => {
    for (const url of [
      "/api/tickets/abc",
      "/api/tickets/-1",
      "/api/tickets/99999999999",
      "/api/messages/abc",
      "/api/messages/1.5/media",
      "/api/whatsapp/0",
      "/api/simulator/abc/outbound",
      "/api/tickets?pageNumber=0",
      "/api/tickets?status=archived",
      "/api/tickets?queueIds=oops",
      "/api/tickets?queueIds=[1,%22a%22]",
      "/api/tickets?date=yesterday",
      "/api/tickets?showAll=maybe",
      "/api/tickets?unknown=1",
      `/api/messages/${ids.ticket}?pageNumber=x`,
      "/api/dashboard?month=13",
    ]) {
      expectClientError(await t.app.inject({ method: "GET", url, headers: admin.auth }), url);
    }
  });

  it("multipart sends with the wrong parts", async () => {
    const boundary = "----zd";
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="avatar"; filename="a.png"',
      "Content-Type: image/png",
      "",
      "xx",
      `--${boundary}--`,
      "",
    ].join("\r\n");
    const res = await t.app.inject({
      method: "POST",
      url: `/api/messages/${ids.ticket}`,
      headers: { ...admin.auth, "content-type": `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expectClientError(res, "unexpected file field");
    const broken = await t.app.inject({
      method: "POST",
      url: `/api/messages/${ids.ticket}`,
      headers: { ...admin.auth, "content-type": `multipart/form-data; boundary=${boundary}` },
      payload: "garbage without parts",
    });
    expectClientError(broken, "broken multipart");
  });
});
