import { randomBytes } from "node:crypto";
import type { Ticket } from "@zapdesk/core";
import { and, eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  customerNumber,
  customerWrites,
  eventually,
  listTickets,
  makeSimulatorConnection,
  phoneReceived,
} from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { connectAs, flush, listen, type RecordingSocket } from "../../../test/sockets.js";
import { auditLog, contactExtraInfo, messages, outbox, tickets, ticketTags, webhookDeliveries } from "../../db/schema.js";

// Issue 23 §2: macros — personal and shared, each action kind through its service, all or nothing.
let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let colleague: TestUser;
let other: TestUser;
let queueId: number;
let connectionId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  queueId = (await makeQueue(t)).id;
  agent = await makeUser(t, { queueIds: [queueId] });
  colleague = await makeUser(t, { queueIds: [queueId] });
  other = await makeUser(t);
  connectionId = (await makeSimulatorConnection(t, admin, { isDefault: true })).id;
});
const opened: Socket[] = [];
afterAll(async () => {
  for (const socket of opened) socket.disconnect();
  await t.close();
});

type Method = "GET" | "POST" | "PUT" | "DELETE";
const call = (method: Method, url: string, who: TestUser, payload?: object) =>
  t.app.inject({ method, url, headers: who.auth, payload });
const unique = (prefix: string) => `${prefix} ${randomBytes(3).toString("hex")}`;

async function makeMacro(who: TestUser, actions: object[], shared = false) {
  const res = await call("POST", "/api/macros", who, { name: unique("Macro"), shared, actions });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; name: string; ownerId: number | null };
}
async function makeTag() {
  const res = await call("POST", "/api/tags", admin, { name: unique("Tag"), color: "#123456" });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number };
}
/** A customer's ticket in the queue: pending, or accepted by `owner`. */
async function customerTicket(owner: TestUser | null, inQueue = queueId) {
  const from = customerNumber();
  await customerWrites(t, admin, connectionId, { from, body: "oi, preciso de ajuda" });
  const ticket = (await listTickets(t, admin, { showAll: "true", status: "pending" })).tickets.find(
    (x) => x.contact.number === from,
  )!;
  let res = await call("PUT", `/api/tickets/${ticket.id}`, admin, { queueId: inQueue, status: "pending" });
  if (owner) res = await call("PUT", `/api/tickets/${ticket.id}`, admin, { status: "open", userId: owner.id });
  expect(res.statusCode, res.body).toBe(200);
  return { ticket: res.json() as Ticket, from };
}
const run = (who: TestUser, ticketId: number, macroId: number) =>
  call("POST", `/api/tickets/${ticketId}/macros/${macroId}/run`, who);
const row = async (id: number) => (await t.database.db.select().from(tickets).where(eq(tickets.id, id)))[0];
const tagIdsOf = async (id: number) =>
  (await t.database.db.select().from(ticketTags).where(eq(ticketTags.ticketId, id))).map((r) => r.tagId);
const notesOf = async (id: number) =>
  t.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.ticketId, id), eq(messages.isNote, true)));
const outboxOf = async (id: number) =>
  t.database.db.select().from(outbox).innerJoin(messages, eq(messages.id, outbox.messageId)).where(eq(messages.ticketId, id));

describe("macros: personal and shared", () => {
  it("everyone keeps personal macros; shared ones need macros:manage; each sees the shared and their own", async () => {
    const tag = await makeTag();
    const mine = await makeMacro(agent, [{ type: "addTag", tagId: tag.id }]);
    expect(mine.ownerId).toBe(agent.id);
    const refused = await call("POST", "/api/macros", agent, {
      name: unique("S"),
      shared: true,
      actions: [{ type: "returnToQueue" }],
    });
    expect([refused.statusCode, refused.json().error]).toEqual([403, "ERR_NO_PERMISSION"]);
    const shared = await makeMacro(admin, [{ type: "returnToQueue" }], true);
    expect(shared.ownerId).toBeNull();

    const listed = (who: TestUser) =>
      call("GET", "/api/macros", who).then((r) => r.json().macros.map((m: { id: number }) => m.id));
    expect(await listed(agent)).toEqual(expect.arrayContaining([mine.id, shared.id]));
    expect(await listed(other)).toContain(shared.id);
    expect(await listed(other)).not.toContain(mine.id);
    // Another user's personal macro is not theirs to see, change or run; a shared one is the managers'.
    expect((await call("PUT", `/api/macros/${mine.id}`, other, { name: "x" })).statusCode).toBe(404);
    expect((await call("PUT", `/api/macros/${shared.id}`, agent, { name: "x" })).json().error).toBe("ERR_NO_PERMISSION");
    expect((await call("PUT", `/api/macros/${mine.id}`, agent, { shared: true })).json().error).toBe("ERR_NO_PERMISSION");
    const dup = await call("POST", "/api/macros", admin, {
      name: shared.name.toUpperCase(),
      shared: true,
      actions: [{ type: "returnToQueue" }],
    });
    expect([dup.statusCode, dup.json().error]).toEqual([409, "ERR_MACRO_NAME_EXISTS"]);
    // A name is unique per owner: another agent may have their own of the same name.
    expect((await call("POST", "/api/macros", other, { name: mine.name, actions: [{ type: "returnToQueue" }] })).statusCode).toBe(
      200,
    );
    expect((await call("DELETE", `/api/macros/${mine.id}`, agent)).statusCode).toBe(200);
    expect(await listed(agent)).not.toContain(mine.id);
  });

  it("refuses to save actions naming what does not exist (400, the action's index) or a webhook call by a non-manager", async () => {
    const res = await call("POST", "/api/macros", agent, {
      name: unique("Bad"),
      actions: [
        { type: "addNote", body: "ok" },
        { type: "assignQueue", queueId: 999999 },
        { type: "addTag", tagId: 999999 },
        { type: "assignAgent", userId: 999999 },
        { type: "callWebhook", webhookId: 1 },
      ],
    });
    expect([res.statusCode, res.json().error]).toEqual([400, "ERR_VALIDATION"]);
    expect(res.json().details.map((d: { path: unknown[] }) => d.path)).toEqual([
      ["actions", 1],
      ["actions", 2],
      ["actions", 3],
      ["actions", 4],
    ]);
    const unknownKind = await call("POST", "/api/macros", agent, {
      name: unique("Bad"),
      actions: [{ type: "deleteEverything" }],
    });
    expect(unknownKind.statusCode).toBe(400);
  });
});

describe("running a macro", () => {
  it("runs each action through its service, as the runner, and answers what each did", async () => {
    const tag = await makeTag();
    const { ticket, from } = await customerTicket(agent);
    const macro = await makeMacro(agent, [
      { type: "addTag", tagId: tag.id },
      { type: "addTag", tagId: tag.id },
      { type: "setContactField", name: "Pedido", value: "A-123" },
      { type: "addNote", body: "Cliente VIP" },
      { type: "sendMessage", body: "Já estamos vendo seu pedido." },
      { type: "assignAgent", userId: colleague.id },
    ]);
    const res = await run(agent, ticket.id, macro.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.results.map((r: { type: string; outcome: string }) => `${r.type}:${r.outcome}`)).toEqual([
      "addTag:done",
      "addTag:unchanged",
      "setContactField:done",
      "addNote:done",
      "sendMessage:done",
      "assignAgent:done",
    ]);
    expect(body.ticket).toMatchObject({ id: ticket.id, userId: colleague.id, status: "open" });
    expect(await tagIdsOf(ticket.id)).toEqual([tag.id]);
    const fields = await t.database.db.select().from(contactExtraInfo).where(eq(contactExtraInfo.contactId, ticket.contactId));
    expect(fields.map((f) => [f.name, f.value])).toEqual([["Pedido", "A-123"]]);
    expect((await notesOf(ticket.id)).map((n) => n.body)).toEqual(["Cliente VIP"]);
    // The message leaves through the outbox, woken after the commit.
    await eventually(async () => {
      const received = await phoneReceived(t, admin, connectionId, from);
      expect(received.map((m) => m.body)).toContain("Já estamos vendo seu pedido.");
    });
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "macro.ran"), eq(auditLog.targetId, String(ticket.id))));
    expect(audit.details).toMatchObject({ macroId: macro.id });

    // The same field again changes nothing; removing the tag and returning to the queue (the colleague runs it).
    const second = await makeMacro(colleague, [
      { type: "setContactField", name: "pedido", value: "A-123" },
      { type: "removeTag", tagId: tag.id },
      { type: "returnToQueue" },
    ]);
    const again = await run(colleague, ticket.id, second.id);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().results.map((r: { outcome: string }) => r.outcome)).toEqual(["unchanged", "done", "done"]);
    expect(await tagIdsOf(ticket.id)).toEqual([]);
    expect(await row(ticket.id)).toMatchObject({ status: "pending", userId: null });
  });

  it("resolves under the queue's closing-reason rule, transfers to a queue, and queues a webhook call (event ticket.action)", async () => {
    const strict = (await makeQueue(t)).id;
    expect((await call("PUT", `/api/queue/${strict}`, admin, { closingReason: "required" })).statusCode).toBe(200);
    const reason = (await call("POST", "/api/closing-reasons", admin, { name: unique("Venda") })).json();
    expect((await call("PUT", "/api/settings/webhookAllowPrivate", admin, { value: "enabled" })).statusCode).toBe(200);
    const hook = (
      await call("POST", "/api/webhooks", admin, { url: "http://127.0.0.1:9/hook", events: ["contact.created"] })
    ).json();
    const { ticket } = await customerTicket(admin, strict);
    const macro = await makeMacro(admin, [
      { type: "callWebhook", webhookId: hook.id },
      { type: "resolve", closingReasonId: reason.id },
    ]);
    const res = await run(admin, ticket.id, macro.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(await row(ticket.id)).toMatchObject({ status: "closed", closingReasonId: reason.id });
    const [delivery] = await t.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, res.json().results[0].deliveryId));
    expect(delivery).toMatchObject({ webhookId: hook.id, event: "ticket.action", entityId: ticket.id });
    expect(delivery.previous).toMatchObject({ kind: "macro", id: macro.id });
    // The worker, woken after commit, freezes the body at its first attempt: the ticket and what called it.
    const body = await eventually(async () => {
      const [row] = await t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id));
      expect(row.body).not.toBeNull();
      return JSON.parse(row.body!) as { event: string; data: { ticket: { id: number }; source: { name: string } } };
    });
    expect(body).toMatchObject({ event: "ticket.action", data: { ticket: { id: ticket.id }, source: { name: macro.name } } });
    // The webhook's deliveries list it beside the subscribed events.
    const listed = await call("GET", `/api/webhooks/${hook.id}/deliveries`, admin);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(JSON.stringify(listed.json())).toContain("ticket.action");

    const { ticket: waiting } = await customerTicket(admin);
    const move = await makeMacro(admin, [{ type: "assignQueue", queueId: strict }]);
    expect((await run(admin, waiting.id, move.id)).statusCode).toBe(200);
    expect(await row(waiting.id)).toMatchObject({ status: "pending", queueId: strict, userId: null });
  });

  it("applies nothing when an action is refused: the first refusal answers, naming the action", async () => {
    const strict = (await makeQueue(t)).id;
    expect((await call("PUT", `/api/queue/${strict}`, admin, { closingReason: "required" })).statusCode).toBe(200);
    const agentOfStrict = await makeUser(t, { queueIds: [strict] });
    const tag = await makeTag();
    const { ticket, from } = await customerTicket(agentOfStrict, strict);
    const macro = await makeMacro(agentOfStrict, [
      { type: "addTag", tagId: tag.id },
      { type: "addNote", body: "nota" },
      { type: "sendMessage", body: "Tchau!" },
      { type: "setContactField", name: "Status", value: "fechado" },
      { type: "resolve" },
    ]);
    const res = await run(agentOfStrict, ticket.id, macro.id);
    expect([res.statusCode, res.json().error]).toEqual([400, "ERR_CLOSING_REASON_REQUIRED"]);
    expect(res.json().details[0].path).toEqual(["actions", 4]);
    expect(await row(ticket.id)).toMatchObject({ status: "open", userId: agentOfStrict.id });
    expect(await tagIdsOf(ticket.id)).toEqual([]);
    expect(await notesOf(ticket.id)).toEqual([]);
    expect(await outboxOf(ticket.id)).toEqual([]);
    const fields = await t.database.db.select().from(contactExtraInfo).where(eq(contactExtraInfo.contactId, ticket.contactId));
    expect(fields).toEqual([]);
    expect((await phoneReceived(t, admin, connectionId, from)).map((m) => m.body)).not.toContain("Tchau!");
  });

  it("an agent's run cannot do what the agent may not: someone else's accept, a ticket out of reach", async () => {
    const { ticket } = await customerTicket(null);
    // A shared macro an admin wrote: on a waiting ticket, assigning to a colleague is an accept on their behalf (admins only).
    const macro = await makeMacro(
      admin,
      [
        { type: "addNote", body: "x" },
        { type: "assignAgent", userId: colleague.id },
      ],
      true,
    );
    const refused = await run(agent, ticket.id, macro.id);
    expect([refused.statusCode, refused.json().error]).toEqual([403, "ERR_NO_PERMISSION"]);
    expect(refused.json().details[0].path).toEqual(["actions", 1]);
    expect(await notesOf(ticket.id)).toEqual([]);
    expect(await row(ticket.id)).toMatchObject({ status: "pending", userId: null });
    // The same macro by an admin goes through.
    expect((await run(admin, ticket.id, macro.id)).statusCode).toBe(200);
    expect(await row(ticket.id)).toMatchObject({ status: "open", userId: colleague.id });
    // A user outside the queue does not reach the ticket at all; nor someone else's personal macro.
    const outside = await run(other, ticket.id, macro.id);
    expect([outside.statusCode, outside.json().error]).toEqual([404, "ERR_NO_TICKET_FOUND"]);
    const personal = await makeMacro(agent, [{ type: "addNote", body: "mine" }]);
    expect((await run(colleague, ticket.id, personal.id)).json().error).toBe("ERR_NO_MACRO_FOUND");
  });
});

describe("realtime and OpenAPI", () => {
  const about = (socket: RecordingSocket, ticketId: number) =>
    socket.received.filter((r) => {
      const p = r.payload as { ticket?: { id: number }; ticketId?: number; message?: { ticketId: number } };
      return p.ticket?.id === ticketId || p.ticketId === ticketId || p.message?.ticketId === ticketId;
    });

  it("a personal macro reaches its owner only; a run is announced after commit, a refused one not at all", async () => {
    const url = await listen(t);
    const mine = await connectAs(url, agent, opened);
    const others = await connectAs(url, other, opened);
    const macro = await makeMacro(agent, [{ type: "addNote", body: "visto" }]);
    const refused = await makeMacro(agent, [
      { type: "addNote", body: "nunca" },
      { type: "assignAgent", userId: colleague.id },
    ]);
    await flush(t, admin, [mine, others]);
    const macroEvents = (s: RecordingSocket) =>
      s.received.filter((r) => r.event === "macro").map((r) => (r.payload as { macro: { id: number } }).macro.id);
    expect(macroEvents(mine)).toEqual(expect.arrayContaining([macro.id, refused.id]));
    expect(macroEvents(others)).not.toContain(macro.id);

    const { ticket } = await customerTicket(null);
    await flush(t, admin, [mine]);
    const before = about(mine, ticket.id).length;
    // On a waiting ticket the second action is an accept for someone else: refused, nothing announced.
    expect((await run(agent, ticket.id, refused.id)).statusCode).toBe(403);
    await flush(t, admin, [mine]);
    expect(about(mine, ticket.id).slice(before)).toEqual([]);
    expect((await run(agent, ticket.id, macro.id)).statusCode).toBe(200);
    await eventually(() =>
      expect(mine.received.some((r) => r.event === "appMessage" && about(mine, ticket.id).includes(r))).toBe(true),
    );
  });

  it("documents the routes", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json() as { paths: Record<string, unknown> };
    for (const path of ["/api/macros", "/api/macros/{id}", "/api/tickets/{id}/macros/{macroId}/run"]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
    expect(JSON.stringify(doc.paths["/api/macros"])).toContain("setContactField");
  });
});
