import type { MenuOptionInput } from "@zapdesk/core";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  customerNumber,
  customerWrites,
  eventually,
  makeSimulatorConnection,
  ticketMessages,
} from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { multipart } from "../../../test/multipart.js";
import { contacts, messages, tickets } from "../../db/schema.js";

// Issue 23 §3: the menu tree's API: connections:manage only, coded errors, OpenAPI, a file per option.
let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let connectionId: number;
let queue: { id: number };

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  queue = await makeQueue(t, { name: "Geral" });
  agent = await makeUser(t, { queueIds: [queue.id] });
  connectionId = (await makeSimulatorConnection(t, admin, { queueIds: [queue.id], greetingMessage: "Oi!" })).id;
});
afterAll(() => t.close());

const put = (menu: unknown, who: TestUser = admin, id = connectionId) =>
  t.app.inject({ method: "PUT", url: `/api/whatsapp/${id}/menu`, headers: who.auth, payload: { menu } });

const leaf = (label: string): MenuOptionInput => ({ label, target: "queue", queueId: queue.id });
/** A chain of sub-menus `levels` deep, ending in a queue. */
function chain(levels: number): MenuOptionInput {
  let option = leaf("fim");
  for (let i = 1; i < levels; i++) option = { label: `nível ${levels - i}`, target: "menu", options: [option] };
  return option;
}

describe("menu API", () => {
  it("stores and reads back a nested tree; null removes it", async () => {
    const res = await put({ options: [chain(5), { label: "Pessoa", target: "person" }] });
    expect(res.statusCode, res.body).toBe(200);
    const got = await t.app.inject({ method: "GET", url: `/api/whatsapp/${connectionId}/menu`, headers: admin.auth });
    expect(got.statusCode).toBe(200);
    const menu = got.json().menu;
    expect(menu.message).toBeNull();
    expect(menu.options.map((o: { label: string }) => o.label)).toEqual(["nível 1", "Pessoa"]);
    expect(menu.options[0].options[0].options[0].options[0].options[0]).toMatchObject({ label: "fim", queueId: queue.id });
    expect((await put(null)).json()).toEqual({ whatsappId: connectionId, menu: null });
  });

  it("refuses what the tree may not be, with coded errors", async () => {
    const cases: [unknown, string][] = [
      [{ options: [chain(6)] }, "ERR_MENU_TOO_DEEP"],
      [{ options: Array.from({ length: 21 }, (_, i) => leaf(`o${i}`)) }, "ERR_MENU_TOO_MANY_OPTIONS"],
      [{ options: [] }, "ERR_MENU_EMPTY_LEVEL"],
      [{ options: [{ label: "Sub", target: "menu", options: [] }] }, "ERR_MENU_EMPTY_LEVEL"],
      [{ options: [{ label: "Ana", target: "agent", queueId: queue.id }] }, "ERR_MENU_TARGET_MISSING"],
      [{ options: [{ label: "X", target: "queue", queueId: 999999 }] }, "ERR_MENU_TARGET_NOT_FOUND"],
      [{ timeoutMinutes: 5, timeoutQueueId: 999999, options: [leaf("a")] }, "ERR_MENU_TARGET_NOT_FOUND"],
      [
        { options: [{ ...leaf("f"), media: { path: "../etc/passwd", name: "x", mime: "image/png" } }] },
        "ERR_MENU_MEDIA_NOT_FOUND",
      ],
    ];
    for (const [menu, error] of cases) {
      const res = await put(menu);
      expect(res.statusCode, error).toBe(400);
      expect(res.json().error).toBe(error);
    }
    expect((await put({ options: [leaf("a")] }, admin, 999999)).json().error).toBe("ERR_NO_WAPP_FOUND");
  });

  it("is for whoever manages connections", async () => {
    expect((await put({ options: [leaf("a")] }, agent)).statusCode).toBe(403);
    const get = await t.app.inject({ method: "GET", url: `/api/whatsapp/${connectionId}/menu`, headers: agent.auth });
    expect(get.statusCode).toBe(403);
  });

  it("sends an option's uploaded file with its text, and refuses a conversation's file", async () => {
    const form = multipart([
      { name: "media", value: Buffer.from("%PDF-1.4\ntabela"), filename: "precos.pdf", type: "application/pdf" },
    ]);
    const up = await t.app.inject({
      method: "POST",
      url: `/api/whatsapp/${connectionId}/menu/media`,
      headers: { ...admin.auth, ...form.headers },
      payload: form.payload,
    });
    expect(up.statusCode, up.body).toBe(200);
    const media = up.json();
    expect(media).toMatchObject({ name: "precos.pdf", mime: "application/pdf" });
    const res = await put({
      options: [{ label: "Preços", target: "queue", queueId: queue.id, message: "Nossa tabela", media }, leaf("b")],
    });
    expect(res.statusCode, res.body).toBe(200);
    const from = customerNumber();
    await customerWrites(t, admin, connectionId, { from, body: "oi" });
    await customerWrites(t, admin, connectionId, { from, body: "1" });
    const [row] = await t.database.db
      .select({ ticket: tickets })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(eq(contacts.number, from));
    const sent = await t.database.db
      .select({ body: messages.body, mediaPath: messages.mediaPath })
      .from(messages)
      .where(and(eq(messages.ticketId, row.ticket.id), eq(messages.fromBot, true)))
      .orderBy(asc(messages.id));
    expect(sent).toEqual([
      { body: "Oi!\n*1* - Preços\n*2* - b", mediaPath: null },
      { body: "Nossa tabela", mediaPath: media.path },
    ]);
    expect(row.ticket.queueId).toBe(queue.id);
    // Shown as the menu's, not a bot's nor Zapdesk's own; the customer's answers are no automation.
    const shown = (await ticketMessages(t, admin, row.ticket.id)).messages;
    expect(shown.filter((m) => m.fromBot).map((m) => m.automation)).toEqual(["menu", "menu"]);
    expect(shown.filter((m) => !m.fromMe).every((m) => m.automation === null)).toBe(true);

    // The customer's own file is no menu file.
    await customerWrites(t, admin, connectionId, {
      from,
      body: "",
      media: { dataBase64: Buffer.from("%PDF-1.4\nmine").toString("base64"), mimetype: "application/pdf", filename: "meu.pdf" },
    });
    const theirs = await eventually(async () => {
      const [found] = await t.database.db
        .select({ path: messages.mediaPath })
        .from(messages)
        .where(and(eq(messages.ticketId, row.ticket.id), eq(messages.fromMe, false), eq(messages.mediaName, "meu.pdf")));
      expect(found?.path).toBeTruthy();
      return found.path as string;
    });
    const refused = await put({ options: [{ ...leaf("x"), media: { path: theirs, name: "x.pdf", mime: "application/pdf" } }] });
    expect(refused.json().error).toBe("ERR_MENU_MEDIA_NOT_FOUND");
  });

  it("documents the routes", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json() as { paths: Record<string, unknown> };
    for (const path of ["/api/whatsapp/{id}/menu", "/api/whatsapp/{id}/menu/media"])
      expect(doc.paths, path).toHaveProperty([path]);
  });
});
