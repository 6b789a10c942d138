import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CloudConnection, customerPhone, makeCloudConnection, startCloudApp } from "../../../test/cloud-rig.js";
import { eventually } from "../../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../../test/factories.js";
import { payloads } from "../../../test/graph-fake/index.js";
import { contacts, tickets } from "../../db/schema.js";

// Issue 23 §2: a macro's "send a template" goes through the template send (Cloud API), after commit.
describe("a macro sends an approved template", () => {
  let app: Awaited<ReturnType<typeof startCloudApp>>;
  let admin: TestUser;
  let cloud: CloudConnection;

  beforeAll(async () => {
    app = await startCloudApp();
    admin = await makeAdmin(app.t);
    cloud = await makeCloudConnection(app, admin);
  });
  afterAll(async () => app?.close());

  const call = (method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
    app.t.app.inject({ method, url, headers: admin.auth, payload });

  it("renders it with the macro's values, stores it and sends it; a closed window does not stop it", async () => {
    app.fake.setTemplates(cloud.businessAccountId, [
      {
        id: "1",
        name: "pedido_enviado",
        language: "pt_BR",
        status: "APPROVED",
        category: "UTILITY",
        components: [{ type: "BODY", text: "Seu pedido {{1}} saiu" }],
      },
    ]);
    expect((await call("POST", `/api/whatsapp/${cloud.connection.id}/templates/sync`)).statusCode).toBe(200);
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
    expect((await call("PUT", `/api/tickets/${ticketId}`, { status: "open", userId: admin.id })).statusCode).toBe(200);
    // Outside the 24-hour window a template is still allowed (a free-form message would be refused).
    await app.t.database.db
      .update(tickets)
      .set({ lastInboundAt: new Date(Date.now() - 48 * 3600_000) })
      .where(eq(tickets.id, ticketId));

    const saved = await call("POST", "/api/macros", {
      name: "Pedido enviado",
      actions: [{ type: "sendTemplate", name: "pedido_enviado", language: "pt_BR", bodyParams: ["A-77"] }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const unknown = await call("POST", "/api/macros", {
      name: "Nope",
      actions: [{ type: "sendTemplate", name: "nao_existe", language: "pt_BR" }],
    });
    expect(unknown.json()).toMatchObject({ error: "ERR_VALIDATION", details: [{ path: ["actions", 0] }] });

    const run = await call("POST", `/api/tickets/${ticketId}/macros/${saved.json().id}/run`);
    expect(run.statusCode, run.body).toBe(200);
    const [messageId] = run.json().results[0].messageIds;
    const messages = (await call("GET", `/api/messages/${ticketId}`)).json().messages as { id: number; body: string }[];
    expect(messages.find((m) => m.id === messageId)?.body).toBe("Seu pedido A-77 saiu");
    await eventually(() => {
      const sent = app.fake.sentMessages(cloud.phoneNumberId).filter((m) => m.type === "template");
      expect(sent.map((m) => (m.template as { name: string }).name)).toContain("pedido_enviado");
    });
  });
});
