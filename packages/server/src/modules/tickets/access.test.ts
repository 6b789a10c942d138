import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, eventually, listTickets, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { connectAs, listen } from "../../../test/sockets.js";

let t: TestApp;
let admin: TestUser;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  url = await listen(t);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await t.close();
});

const connect = (user: TestUser) => connectAs(url, user, sockets);

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

describe("ticket access", () => {
  it("keeps a queue's tickets, messages, media and events from agents outside it", async () => {
    const sales = await makeQueue(t);
    const support = await makeQueue(t);
    const insider = await makeUser(t, { queueIds: [sales.id] });
    const outsider = await makeUser(t, { queueIds: [support.id] });
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [sales.id] });
    const insiderSocket = await connect(insider);
    const outsiderSocket = await connect(outsider);

    const from = customerNumber();
    await customerWrites(t, admin, connection.id, {
      from,
      body: "secret order",
      media: { mimetype: "image/png", filename: "receipt.png", dataBase64: PNG },
    });
    // Media downloads run beside the connection's ordered events: wait for them.
    await t.pipeline.idle();
    const { tickets } = await listTickets(t, insider, { status: "pending" });
    const ticket = tickets.find((x) => x.contact.number === from)!;
    expect(ticket.queueId).toBe(sales.id);

    await eventually(() => expect(insiderSocket.received.some((r) => r.event === "appMessage")).toBe(true));
    expect(outsiderSocket.received.filter((r) => r.event === "appMessage" || r.event === "ticket")).toEqual([]);

    expect((await listTickets(t, outsider, { status: "pending" })).tickets.find((x) => x.id === ticket.id)).toBeUndefined();
    expect((await listTickets(t, outsider, { searchParam: "secret" })).tickets).toEqual([]);
    expect((await listTickets(t, insider, { searchParam: "secret" })).tickets.map((x) => x.id)).toContain(ticket.id);

    const history = await t.app.inject({ method: "GET", url: `/api/messages/${ticket.id}`, headers: insider.auth });
    const image = history.json().messages[0];
    for (const [method, path, payload] of [
      ["GET", `/api/tickets/${ticket.id}`, undefined],
      ["GET", `/api/messages/${ticket.id}`, undefined],
      ["GET", image.mediaUrl, undefined],
      ["POST", `/api/messages/${ticket.id}`, { body: "let me in" }],
      ["PUT", `/api/tickets/${ticket.id}`, { status: "open", userId: outsider.id }],
      ["DELETE", `/api/messages/${image.id}`, undefined],
    ] as const) {
      const res = await t.app.inject({ method, url: path, headers: outsider.auth, payload });
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(["ERR_NO_TICKET_FOUND", "ERR_NO_MESSAGE_FOUND"]).toContain(res.json().error);
    }

    const refused = await outsiderSocket.emitWithAck("joinChatBox", ticket.id);
    expect(refused).toEqual({ ok: false, error: "ERR_NO_TICKET_FOUND" });
    const allowed = await insiderSocket.emitWithAck("joinChatBox", ticket.id);
    expect(allowed).toEqual({ ok: true });

    // Transfer away from the insider's queue: they are told to drop it.
    const other = await makeQueue(t);
    const transfer = await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket.id}`,
      headers: admin.auth,
      payload: { status: "pending", userId: null, queueId: other.id },
    });
    expect(transfer.statusCode, transfer.body).toBe(200);
    await eventually(() =>
      expect(insiderSocket.received).toContainEqual({
        event: "ticket",
        payload: { action: "delete", ticketId: ticket.id, reason: "moved" },
      }),
    );
  });

  it("refuses showAll, ticket deletion and the QR code to agents", async () => {
    const agent = await makeUser(t);
    const showAll = await t.app.inject({ method: "GET", url: "/api/tickets", headers: agent.auth, query: { showAll: "true" } });
    expect(showAll.statusCode).toBe(403);
    expect(showAll.json().error).toBe("ERR_NO_PERMISSION");

    const connection = await makeSimulatorConnection(t, admin);
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, body: "hi" });
    const ticket = (await listTickets(t, admin, { showAll: "true" })).tickets.find((x) => x.contact.number === from)!;
    const del = await t.app.inject({ method: "DELETE", url: `/api/tickets/${ticket.id}`, headers: agent.auth });
    expect(del.statusCode).toBe(403);
    expect(del.json().error).toBe("ERR_NO_PERMISSION");

    const agentSocket = await connect(agent);
    const adminSocket = await connect(admin);
    const renew = await t.app.inject({ method: "PUT", url: `/api/whatsappsession/${connection.id}`, headers: agent.auth });
    expect(renew.statusCode).toBe(403);
    const qr = await t.app.inject({ method: "PUT", url: `/api/whatsappsession/${connection.id}`, headers: admin.auth });
    expect(qr.statusCode, qr.body).toBe(200);
    await eventually(() =>
      expect(
        adminSocket.received.some(
          (r) => r.event === "whatsappSession" && (r.payload as { session: { qrcode: string } }).session.qrcode !== "",
        ),
      ).toBe(true),
    );
    const agentViews = agentSocket.received.filter((r) => r.event === "whatsappSession");
    expect(agentViews.length).toBeGreaterThan(0);
    for (const view of agentViews) expect((view.payload as { session: { qrcode: string } }).session.qrcode).toBe("");
    const list = await t.app.inject({ method: "GET", url: "/api/whatsapp", headers: agent.auth });
    for (const c of list.json()) expect(c.qrcode).toBe("");

    const admins = await t.app.inject({ method: "DELETE", url: `/api/tickets/${ticket.id}`, headers: admin.auth });
    expect(admins.statusCode).toBe(200);
  });

  it("never serves an uploaded HTML file inline", async () => {
    const agent = await makeUser(t);
    const connection = await makeSimulatorConnection(t, admin);
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, body: "hi" });
    const ticket = (await listTickets(t, admin, { showAll: "true" })).tickets.find((x) => x.contact.number === from)!;
    await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket.id}`,
      headers: agent.auth,
      payload: { status: "open", userId: agent.id },
    });

    const boundary = "----zapdesk";
    const html = "<html><body><script>alert(document.cookie)</script></body></html>";
    const payload = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="body"',
      "",
      "see attached",
      `--${boundary}`,
      'Content-Disposition: form-data; name="medias"; filename="../../evil.html"',
      "Content-Type: text/html",
      "",
      html,
      `--${boundary}--`,
      "",
    ].join("\r\n");
    const sent = await t.app.inject({
      method: "POST",
      url: `/api/messages/${ticket.id}`,
      headers: { ...agent.auth, "content-type": `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const message = sent.json();
    expect(message.mediaType).toBe("document");
    expect(message.mediaName).toBe("evil.html");
    const file = await t.app.inject({ method: "GET", url: message.mediaUrl, headers: agent.auth });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("application/octet-stream");
    expect(file.headers["content-disposition"]).toMatch(/^attachment;/);
    expect(file.headers["x-content-type-options"]).toBe("nosniff");
    expect(file.body).toBe(html);
    const anonymous = await t.app.inject({ method: "GET", url: message.mediaUrl });
    expect(anonymous.statusCode).toBe(401);
  });
});
