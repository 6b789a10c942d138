import type { Template } from "@zapdesk/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CloudConnection, customerPhone, makeCloudConnection, startCloudApp } from "../../../test/cloud-rig.js";
import { customerWrites, eventually, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { payloads } from "../../../test/graph-fake/index.js";
import { contacts, tickets } from "../../db/schema.js";
import { renderTemplate, sendComponents, variablesOf } from "./template-render.js";

const approved = (i: number) => ({
  id: String(i),
  name: `aviso_${String(i).padStart(3, "0")}`,
  language: "pt_BR",
  status: "APPROVED",
  category: "UTILITY",
  components: [{ type: "BODY", text: "Olá {{1}}" }],
});

describe("template text", () => {
  it("counts positional and named variables, renders and builds Meta's components", () => {
    const components = [
      { type: "HEADER", format: "TEXT", text: "Reserva de {{guest}}" },
      { type: "BODY", text: "Mesa para {{number_of_guests}} em {{day}}, {{day}}." },
    ];
    expect(variablesOf("Olá {{1}}, pedido {{2}} {{1}}")).toEqual(["1", "2"]);
    expect(renderTemplate(components, ["4", "sábado"], ["Ana"])).toBe("*Reserva de Ana*\n\nMesa para 4 em sábado, sábado.");
    expect(sendComponents(components, ["4", "sábado"], ["Ana"])).toEqual([
      { type: "header", parameters: [{ type: "text", text: "Ana", parameter_name: "guest" }] },
      {
        type: "body",
        parameters: [
          { type: "text", text: "4", parameter_name: "number_of_guests" },
          { type: "text", text: "sábado", parameter_name: "day" },
        ],
      },
    ]);
    // An image header has no text variables.
    expect(
      renderTemplate(
        [
          { type: "HEADER", format: "IMAGE" },
          { type: "BODY", text: "Oi" },
        ],
        [],
        [],
      ),
    ).toBe("Oi");
  });
});

describe("templates routes", () => {
  let app: Awaited<ReturnType<typeof startCloudApp>>;
  let admin: TestUser;
  let agent: TestUser;
  let cloud: CloudConnection;

  beforeAll(async () => {
    app = await startCloudApp();
    admin = await makeAdmin(app.t);
    agent = await makeUser(app.t);
    cloud = await makeCloudConnection(app, admin);
  });
  afterAll(async () => app?.close());

  const inject = (method: "GET" | "POST", url: string, user?: TestUser, payload?: unknown) =>
    app.t.app.inject({ method, url, headers: user?.auth, payload: payload as Record<string, unknown> });

  it("any signed-in user lists templates; an admin syncs every page of them; agents get 403, strangers 401", async () => {
    const list = `/api/whatsapp/${cloud.connection.id}/templates`;
    expect((await inject("GET", list)).statusCode).toBe(401);
    expect((await inject("POST", `${list}/sync`)).statusCode).toBe(401);
    const empty = await inject("GET", list, agent);
    expect(empty.json()).toEqual({ templates: [], syncedAt: null });

    app.fake.setTemplates(cloud.businessAccountId, [
      ...Array.from({ length: 130 }, (_, i) => approved(i)),
      { ...approved(500), status: "REJECTED" },
      { ...approved(501), status: "PAUSED" },
    ]);
    const refused = await inject("POST", `${list}/sync`, agent);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: "ERR_NO_PERMISSION" });
    expect(app.fake.requests.some((r) => r.path === `/${cloud.businessAccountId}/message_templates`)).toBe(false);
    const synced = await inject("POST", `${list}/sync`, admin);
    expect(synced.statusCode, synced.body).toBe(200);
    const body = synced.json() as { templates: Template[]; syncedAt: string };
    expect(body.templates).toHaveLength(130);
    expect(body.templates[0]).toMatchObject({ name: "aviso_000", language: "pt_BR", bodyVariables: 1, bodyText: "Olá {{1}}" });
    expect(body.syncedAt).not.toBeNull();
    expect((await inject("GET", list, agent)).json().templates).toHaveLength(130);
    const pages = app.fake.requests.filter((r) => r.path === `/${cloud.businessAccountId}/message_templates`);
    expect(pages.map((r) => r.query.after ?? null)).toEqual([null, expect.any(String)]);
    expect(pages.every((r) => r.authorization === `Bearer ${cloud.accessToken}`)).toBe(true);

    // A template withdrawn at Meta disappears at the next sync.
    app.fake.setTemplates(cloud.businessAccountId, [approved(7)]);
    const again = (await inject("POST", `${list}/sync`, admin)).json() as { templates: Template[] };
    expect(again.templates.map((t) => t.name)).toEqual(["aviso_007"]);
  });

  it("Meta's refusal of a sync is a 502 with its code; wrong connections are 404 and 409", async () => {
    app.fake.failNext({ code: 190, on: "templates" });
    const refused = await inject("POST", `/api/whatsapp/${cloud.connection.id}/templates/sync`, admin);
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({ error: "ERR_CLOUD_API", message: expect.stringContaining("190") });
    expect((await inject("GET", "/api/whatsapp/999999/templates", admin)).json()).toMatchObject({ error: "ERR_NO_WAPP_FOUND" });
    expect((await inject("GET", "/api/whatsapp/abc/templates", admin)).statusCode).toBe(400);
    const simulator = await makeSimulatorConnection(app.t, admin);
    const notCloud = await inject("GET", `/api/whatsapp/${simulator.id}/templates`, admin);
    expect(notCloud.statusCode).toBe(409);
    expect(notCloud.json()).toMatchObject({ error: "ERR_WAPP_NOT_SUPPORTED" });
  });

  it("a template send is checked like a send: access, open ticket, known template, right number of values", async () => {
    app.fake.setTemplates(cloud.businessAccountId, [approved(1)]);
    await inject("POST", `/api/whatsapp/${cloud.connection.id}/templates/sync`, admin);
    const from = customerPhone();
    await cloud.meta.deliver(cloud.meta.message(payloads.text({ from, body: "oi" })));
    const ticketId = await eventually(async () => {
      const [row] = await app.t.database.db
        .select({ id: tickets.id })
        .from(tickets)
        .innerJoin(contacts, eq(contacts.id, tickets.contactId))
        .where(eq(contacts.number, from));
      expect(row).toBeDefined();
      return row.id;
    });
    const url = `/api/messages/${ticketId}/template`;
    const good = { name: "aviso_001", language: "pt_BR", bodyParams: ["Ana"] };

    const pending = await inject("POST", url, admin, good);
    expect(pending.statusCode).toBe(409);
    await app.t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticketId}`,
      headers: admin.auth,
      payload: { status: "open", userId: admin.id },
    });

    // A user outside the ticket's queue, not assigned to it, cannot reach it (design §4).
    const queue = await makeQueue(app.t);
    const outsider = await makeUser(app.t, { queueIds: [] });
    await app.t.database.db.update(tickets).set({ queueId: queue.id, userId: admin.id }).where(eq(tickets.id, ticketId));
    expect((await inject("POST", url, outsider, good)).json()).toMatchObject({ error: "ERR_NO_TICKET_FOUND" });
    expect((await inject("POST", url, undefined, good)).statusCode).toBe(401);

    const wrongCount = await inject("POST", url, admin, { ...good, bodyParams: [] });
    expect(wrongCount.statusCode).toBe(400);
    expect(wrongCount.json()).toMatchObject({ error: "ERR_VALIDATION", details: [{ path: ["bodyParams"] }] });
    const unknown = await inject("POST", url, admin, { ...good, name: "nao_existe" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: "ERR_NO_TEMPLATE_FOUND" });
    for (const bad of [
      { ...good, language: "portuguese" },
      { ...good, extra: 1 },
      { ...good, bodyParams: [""] },
    ]) {
      expect((await inject("POST", url, admin, bad)).statusCode).toBe(400);
    }
    expect((await inject("POST", "/api/messages/abc/template", admin, good)).statusCode).toBe(400);

    const sent = await inject("POST", url, admin, good);
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ body: "Olá Ana", fromMe: true, ack: 0 });
  });

  it("templates are refused on a connection of another kind", async () => {
    const simulator = await makeSimulatorConnection(app.t, admin);
    const from = customerPhone();
    await customerWrites(app.t, admin, simulator.id, { from, body: "oi" });
    const [row] = await eventually(async () => {
      const rows = await app.t.database.db
        .select({ id: tickets.id })
        .from(tickets)
        .innerJoin(contacts, eq(contacts.id, tickets.contactId))
        .where(eq(contacts.number, from));
      expect(rows).toHaveLength(1);
      return rows;
    });
    await app.t.app.inject({
      method: "PUT",
      url: `/api/tickets/${row.id}`,
      headers: admin.auth,
      payload: { status: "open", userId: admin.id },
    });
    const res = await inject("POST", `/api/messages/${row.id}/template`, admin, { name: "x", language: "pt_BR" });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: "ERR_WAPP_NOT_SUPPORTED" });
  });
});
