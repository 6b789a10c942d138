import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, makeSimulatorConnection } from "../../../test/conversation.js";
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

const get = (id: number, user = admin) => t.app.inject({ method: "GET", url: `/api/whatsapp/${id}`, headers: user.auth });

describe("connections", () => {
  it("creates the first connection as default, keeps one default, promotes another when it is deleted", async () => {
    const before = await t.app.inject({ method: "GET", url: "/api/whatsappzdg", headers: agent.auth });
    expect(before.statusCode).toBe(404);
    expect(before.json().error).toBe("ERR_NO_DEF_WAPP_FOUND");

    const first = await makeSimulatorConnection(t, admin, { name: "First" });
    expect(first).toMatchObject({ isDefault: true, provider: "simulator", status: "CONNECTED", qrcode: "" });
    const zdg = await t.app.inject({ method: "GET", url: "/api/whatsappzdg", headers: agent.auth });
    expect(zdg.json()).toEqual({ id: first.id });

    const second = await makeSimulatorConnection(t, admin, { name: "Second", isDefault: true });
    expect(second.isDefault).toBe(true);
    expect((await get(first.id)).json().isDefault).toBe(false);

    const unset = await t.app.inject({
      method: "PUT",
      url: `/api/whatsapp/${second.id}`,
      headers: admin.auth,
      payload: { isDefault: false },
    });
    expect(unset.statusCode).toBe(400);
    expect(unset.json().error).toBe("ERR_NO_OTHER_WHATSAPP");

    const removed = await t.app.inject({ method: "DELETE", url: `/api/whatsapp/${second.id}`, headers: admin.auth });
    expect(removed.statusCode).toBe(200);
    expect((await get(first.id)).json().isDefault).toBe(true);
    expect((await get(second.id)).json().error).toBe("ERR_NO_WAPP_FOUND");
  });

  it("requires a greeting with two or more queues, and validates names and queues", async () => {
    const q1 = await makeQueue(t);
    const q2 = await makeQueue(t);
    const noGreeting = await t.app.inject({
      method: "POST",
      url: "/api/whatsapp",
      headers: admin.auth,
      payload: { name: "Menu", provider: "simulator", queueIds: [q1.id, q2.id] },
    });
    expect(noGreeting.statusCode).toBe(400);
    expect(noGreeting.json().error).toBe("ERR_WAPP_GREETING_REQUIRED");

    const short = await t.app.inject({ method: "POST", url: "/api/whatsapp", headers: admin.auth, payload: { name: "A" } });
    expect(short.json().details).toContainEqual({ path: ["name"], message: "Too Short!" });
    const provider = await t.app.inject({
      method: "POST",
      url: "/api/whatsapp",
      headers: admin.auth,
      payload: { name: "Bad", provider: "wa-web" },
    });
    expect(provider.json().details[0].path).toEqual(["provider"]);
    const unknownQueue = await t.app.inject({
      method: "POST",
      url: "/api/whatsapp",
      headers: admin.auth,
      payload: { name: "Ghost queue", provider: "simulator", queueIds: [999999] },
    });
    expect(unknownQueue.json().details[0].path).toEqual(["queueIds"]);

    const ok = await makeSimulatorConnection(t, admin, {
      name: "Menu ok",
      queueIds: [q1.id, q2.id],
      greetingMessage: "Pick one",
    });
    expect(ok.queues.map((q) => q.id).sort()).toEqual([q1.id, q2.id].sort());
    const duplicate = await t.app.inject({
      method: "POST",
      url: "/api/whatsapp",
      headers: admin.auth,
      payload: { name: "menu OK", provider: "simulator" },
    });
    expect(duplicate.json().details[0].path).toEqual(["name"]);
    const dropGreeting = await t.app.inject({
      method: "PUT",
      url: `/api/whatsapp/${ok.id}`,
      headers: admin.auth,
      payload: { greetingMessage: "" },
    });
    expect(dropGreeting.json().error).toBe("ERR_WAPP_GREETING_REQUIRED");
  });

  it("lets agents read the list without QR codes, and nothing else", async () => {
    const connection = await makeSimulatorConnection(t, admin, { name: "Readable" });
    expect((await get(connection.id, agent)).statusCode).toBe(200);
    for (const [method, url] of [
      ["POST", "/api/whatsapp"],
      ["PUT", `/api/whatsapp/${connection.id}`],
      ["DELETE", `/api/whatsapp/${connection.id}`],
      ["POST", `/api/whatsappsession/${connection.id}`],
      ["PUT", `/api/whatsappsession/${connection.id}`],
      ["DELETE", `/api/whatsappsession/${connection.id}`],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: agent.auth,
        payload: method === "POST" && url === "/api/whatsapp" ? { name: "Nope" } : undefined,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error).toBe("ERR_NO_PERMISSION");
    }
    expect((await t.app.inject({ method: "GET", url: "/api/whatsapp" })).statusCode).toBe(401);
  });

  it("disconnects, shows a new QR on request and reconnects on try-again", async () => {
    const connection = await makeSimulatorConnection(t, admin, { name: "Lifecycle" });
    const off = await t.app.inject({ method: "DELETE", url: `/api/whatsappsession/${connection.id}`, headers: admin.auth });
    expect(off.statusCode).toBe(200);
    await eventually(async () => expect((await get(connection.id)).json().status).toBe("DISCONNECTED"));
    const again = await t.app.inject({ method: "POST", url: `/api/whatsappsession/${connection.id}`, headers: admin.auth });
    expect(again.statusCode).toBe(200);
    await eventually(async () => expect((await get(connection.id)).json().status).toBe("CONNECTED"));
    const unknown = await t.app.inject({ method: "POST", url: "/api/whatsappsession/999999", headers: admin.auth });
    expect(unknown.json().error).toBe("ERR_NO_WAPP_FOUND");
  });
});
