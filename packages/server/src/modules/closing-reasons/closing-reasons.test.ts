import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../../test/conversation.js";
import { makeAdmin, makeContact, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { connectAs, listen, ticketEvents } from "../../../test/sockets.js";
import { tickets } from "../../db/schema.js";
import { insertTicketIfNoneActive } from "../tickets/tickets.repo.js";

// Issue 23 §6: closing reasons — the list, the queue's rule at Resolve and Protocolo, the API token.
let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let url: string;
const opened: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp({ start: false });
  admin = await makeAdmin(t);
  agent = await makeUser(t);
  url = await listen(t);
});
afterAll(async () => {
  for (const socket of opened) socket.disconnect();
  await t.close();
});

type Method = "GET" | "POST" | "PUT" | "DELETE";
const call = (method: Method, url: string, who: TestUser, payload?: object) =>
  t.app.inject({ method, url, headers: who.auth, payload });
const unique = (prefix: string) => `${prefix} ${randomBytes(3).toString("hex")}`;

async function makeReason(input: { name?: string; asksValue?: boolean } = {}) {
  const res = await call("POST", "/api/closing-reasons", admin, { name: input.name ?? unique("Reason"), ...input });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; name: string; asksValue: boolean; archived: boolean };
}
async function queueAsking(mode: "off" | "optional" | "required") {
  const queue = await makeQueue(t);
  const res = await call("PUT", `/api/queue/${queue.id}`, admin, { closingReason: mode });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().closingReason).toBe(mode);
  return queue;
}
/** An open ticket of `who` in `queueId` (no connection: no farewell or survey is sent). */
async function openTicket(who: TestUser, queueId: number | null) {
  const contact = await makeContact(t);
  const row = await insertTicketIfNoneActive(t.database.db, {
    contactId: contact.id,
    whatsappId: null,
    status: "open",
    isGroup: false,
    userId: who.id,
    queueId,
  });
  return row!;
}
const resolve = (who: TestUser, id: number, extra: object = {}) =>
  call("PUT", `/api/tickets/${id}`, who, { status: "closed", userId: who.id, ...extra });

describe("the list of closing reasons", () => {
  it("admins create, rename, archive and delete; agents read and cannot write (closing-reasons:manage)", async () => {
    const reason = await makeReason({ name: unique("Venda"), asksValue: true });
    expect(reason).toMatchObject({ asksValue: true, archived: false });
    expect((await call("GET", "/api/closing-reasons", agent)).json().closingReasons).toContainEqual(reason);
    const archived = await call("PUT", `/api/closing-reasons/${reason.id}`, admin, { archived: true });
    expect(archived.json()).toMatchObject({ id: reason.id, archived: true });
    for (const [method, path, payload] of [
      ["POST", "/api/closing-reasons", { name: unique("Nope") }],
      ["PUT", `/api/closing-reasons/${reason.id}`, { archived: false }],
      ["DELETE", `/api/closing-reasons/${reason.id}`, undefined],
    ] as const) {
      const res = await call(method, path, agent, payload);
      expect(res.statusCode, `${method} ${path}`).toBe(403);
      expect(res.json().error).toBe("ERR_NO_PERMISSION");
    }
    const dup = await call("POST", "/api/closing-reasons", admin, { name: reason.name.toUpperCase() });
    expect([dup.statusCode, dup.json().error]).toEqual([409, "ERR_CLOSING_REASON_NAME_EXISTS"]);
    const blank = await call("POST", "/api/closing-reasons", admin, { name: "  " });
    expect([blank.statusCode, blank.json().error]).toEqual([400, "ERR_VALIDATION"]);
    expect((await call("DELETE", `/api/closing-reasons/${reason.id}`, admin)).statusCode).toBe(200);
    const gone = await call("PUT", `/api/closing-reasons/${reason.id}`, admin, { name: "x" });
    expect([gone.statusCode, gone.json().error]).toEqual([404, "ERR_NO_CLOSING_REASON_FOUND"]);
  });

  it("refuses to delete a reason a ticket carries (409 ERR_CLOSING_REASON_IN_USE); archived, it stays on the ticket", async () => {
    const reason = await makeReason();
    const ticket = await openTicket(agent, null);
    expect((await resolve(agent, ticket.id, { closingReasonId: reason.id })).statusCode).toBe(200);
    const refused = await call("DELETE", `/api/closing-reasons/${reason.id}`, admin);
    expect([refused.statusCode, refused.json().error]).toEqual([409, "ERR_CLOSING_REASON_IN_USE"]);
    await call("PUT", `/api/closing-reasons/${reason.id}`, admin, { archived: true });
    const shown = await call("GET", `/api/tickets/${ticket.id}`, agent);
    expect(shown.json().closingReason).toMatchObject({ id: reason.id, name: reason.name, archived: true, value: null });
  });
});

describe("resolving with a closing reason", () => {
  it("a queue that requires one refuses a resolve without it (400 ERR_CLOSING_REASON_REQUIRED) and takes one with it", async () => {
    const queue = await queueAsking("required");
    const reason = await makeReason();
    const ticket = await openTicket(agent, queue.id);
    const refused = await resolve(agent, ticket.id);
    expect([refused.statusCode, refused.json().error]).toEqual([400, "ERR_CLOSING_REASON_REQUIRED"]);
    const [still] = await t.database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(still.status).toBe("open");

    const done = await resolve(agent, ticket.id, { closingReasonId: reason.id });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      status: "closed",
      closingReason: { id: reason.id, name: reason.name, archived: false, value: null, at: expect.any(String) },
    });
  });

  it("an optional or off queue resolves without one; a reason's value is checked", async () => {
    for (const mode of ["optional", "off"] as const) {
      const ticket = await openTicket(agent, (await queueAsking(mode)).id);
      const res = await resolve(agent, ticket.id);
      expect(res.statusCode, mode).toBe(200);
      expect(res.json().closingReason).toBeNull();
    }
    const sale = await makeReason({ asksValue: true });
    const plain = await makeReason();
    const queue = await queueAsking("optional");
    const cases: [object, number, string][] = [
      [{ closingReasonId: sale.id }, 400, "ERR_CLOSING_VALUE_REQUIRED"],
      [{ closingReasonId: plain.id, closingValue: 10 }, 400, "ERR_CLOSING_VALUE_NOT_ALLOWED"],
      [{ closingValue: 10 }, 400, "ERR_CLOSING_VALUE_NOT_ALLOWED"],
      [{ closingReasonId: sale.id, closingValue: -1 }, 400, "ERR_VALIDATION"],
      [{ closingReasonId: sale.id, closingValue: 1.005 }, 400, "ERR_VALIDATION"],
      [{ closingReasonId: sale.id, closingValue: "10" }, 400, "ERR_VALIDATION"],
      [{ closingReasonId: 2147483000 }, 404, "ERR_NO_CLOSING_REASON_FOUND"],
    ];
    const ticket = await openTicket(agent, queue.id);
    for (const [extra, status, error] of cases) {
      const res = await resolve(agent, ticket.id, extra);
      expect([res.statusCode, res.json().error], JSON.stringify(extra)).toEqual([status, error]);
    }
    const done = await resolve(agent, ticket.id, { closingReasonId: sale.id, closingValue: 1234.5 });
    expect(done.json().closingReason).toMatchObject({ id: sale.id, value: 1234.5 });
  });

  it("an archived reason is refused for a new close (409 ERR_CLOSING_REASON_ARCHIVED)", async () => {
    const reason = await makeReason();
    await call("PUT", `/api/closing-reasons/${reason.id}`, admin, { archived: true });
    const ticket = await openTicket(agent, (await queueAsking("required")).id);
    const res = await resolve(agent, ticket.id, { closingReasonId: reason.id });
    expect([res.statusCode, res.json().error]).toEqual([409, "ERR_CLOSING_REASON_ARCHIVED"]);
  });

  it("a reason only comes with a resolve, or alone to correct a closed ticket; a reopen keeps it, the next close replaces it", async () => {
    const first = await makeReason();
    const second = await makeReason();
    const ticket = await openTicket(agent, (await queueAsking("optional")).id);
    const early = await call("PUT", `/api/tickets/${ticket.id}`, agent, { closingReasonId: first.id });
    expect([early.statusCode, early.json().error]).toEqual([409, "ERR_CLOSING_REASON_NOT_CLOSING"]);
    const withReturn = await call("PUT", `/api/tickets/${ticket.id}`, agent, {
      status: "pending",
      userId: null,
      closingReasonId: first.id,
    });
    expect([withReturn.statusCode, withReturn.json().error]).toEqual([409, "ERR_CLOSING_REASON_NOT_CLOSING"]);

    await resolve(agent, ticket.id, { closingReasonId: first.id });
    const corrected = await call("PUT", `/api/tickets/${ticket.id}`, agent, { closingReasonId: second.id });
    expect(corrected.json()).toMatchObject({ status: "closed", closingReason: { id: second.id } });
    const reopened = await call("PUT", `/api/tickets/${ticket.id}`, agent, { status: "open", userId: agent.id });
    expect(reopened.json()).toMatchObject({ status: "open", closingReason: { id: second.id } });
    const closedAgain = await resolve(agent, ticket.id);
    expect(closedAgain.json().closingReason).toBeNull();
  });

  it("the ticket's realtime update carries the reason", async () => {
    const reason = await makeReason();
    const ticket = await openTicket(agent, null);
    const socket = await connectAs(url, agent, opened);
    await resolve(agent, ticket.id, { closingReasonId: reason.id });
    await eventually(() => {
      const update = ticketEvents(socket, ticket.id).find((e) => e.action === "update") as
        | { ticket: { closingReason: { id: number } | null } }
        | undefined;
      expect(update?.ticket.closingReason?.id).toBe(reason.id);
    });
  });

  it("Protocolo checks the reason before the protocol is issued, then closes with it", async () => {
    const queue = await queueAsking("required");
    const reason = await makeReason({ asksValue: true });
    const ticket = await openTicket(agent, queue.id);
    const refused = await call("POST", `/api/tickets/${ticket.id}/protocol`, agent, {});
    expect([refused.statusCode, refused.json().error]).toEqual([400, "ERR_CLOSING_REASON_REQUIRED"]);
    const [untouched] = await t.database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(untouched.protocol).toBeNull();
    const done = await call("POST", `/api/tickets/${ticket.id}/protocol`, agent, {
      closingReasonId: reason.id,
      closingValue: 99.9,
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().ticket).toMatchObject({ status: "closed", closingReason: { id: reason.id, value: 99.9 } });
  });

  it("the API token closes with a reason (POST /api/tickets/:id/close) under the same rule", async () => {
    const token = (await call("GET", "/api/settings", admin)).json() as { key: string; value: string }[];
    const apiToken = token.find((s) => s.key === "userApiToken")?.value ?? "";
    expect(apiToken).not.toBe("");
    const withToken = (id: number, payload: object, auth = `Bearer ${apiToken}`) =>
      t.app.inject({ method: "POST", url: `/api/tickets/${id}/close`, headers: { authorization: auth }, payload });
    const reason = await makeReason();
    const ticket = await openTicket(agent, (await queueAsking("required")).id);
    const wrong = await withToken(ticket.id, { closingReasonId: reason.id }, "Bearer nope");
    expect(wrong.statusCode).toBe(403);
    const missing = await withToken(ticket.id, {});
    expect([missing.statusCode, missing.json().error]).toEqual([400, "ERR_CLOSING_REASON_REQUIRED"]);
    const done = await withToken(ticket.id, { closingReasonId: reason.id });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: "closed", userId: agent.id, closingReason: { id: reason.id } });
  });

  it("the OpenAPI document describes the routes and the ticket's reason", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json() as { paths: Record<string, unknown> };
    for (const path of [
      "/api/closing-reasons",
      "/api/closing-reasons/{id}",
      "/api/dashboard/closing-reasons",
      "/api/tickets/export",
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
    expect(JSON.stringify(doc.paths["/api/tickets/{id}"])).toContain("closingReasonId");
    expect(JSON.stringify(doc.paths["/api/tickets/{id}/close"])).toContain("userApiToken");
  });
});
