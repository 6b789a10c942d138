import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertConnection } from "../../../test/channel-support.js";
import { customerNumber, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let whatsappId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  agent = await makeUser(t);
  whatsappId = (await makeSimulatorConnection(t, admin)).id;
});
afterAll(() => t.close());

const post = (user: TestUser | undefined, path: string, payload?: object) =>
  t.app.inject({ method: "POST", url: `/api/simulator/${path}`, headers: user?.auth, payload });

describe("simulator routes", () => {
  it("delivers a customer's message and returns its id; a repeated id is the same message", async () => {
    const from = customerNumber();
    const first = await post(admin, `${whatsappId}/inbound`, { from, name: "Ana", body: "Hello", id: "ROUTE-1" });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ id: "ROUTE-1" });
    const again = await post(admin, `${whatsappId}/inbound`, { from, name: "Ana", body: "Hello", id: "ROUTE-1" });
    expect(again.json()).toEqual({ id: "ROUTE-1" });

    const generated = await post(admin, `${whatsappId}/inbound`, {
      from,
      media: { mimetype: "image/png", filename: "p.png", dataBase64: Buffer.from("png").toString("base64") },
    });
    expect(generated.json().id).toMatch(/^3EB0/);

    expect((await post(admin, `${whatsappId}/edit`, { id: "ROUTE-1", body: "Hello!" })).statusCode).toBe(200);
    expect((await post(admin, `${whatsappId}/revoke`, { id: "ROUTE-1" })).statusCode).toBe(200);
    expect((await post(admin, `${whatsappId}/call`, { from })).json()).toEqual({ callId: expect.any(String) });
    const outbound = await t.app.inject({
      method: "GET",
      url: `/api/simulator/${whatsappId}/outbound`,
      headers: admin.auth,
      query: { to: from },
    });
    expect(outbound.statusCode).toBe(200);
    expect(outbound.json()).toEqual({ messages: expect.any(Array) });
  });

  it("validates bodies", async () => {
    const empty = await post(admin, `${whatsappId}/inbound`, { from: customerNumber() });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe("ERR_VALIDATION");
    expect((await post(admin, `${whatsappId}/inbound`, { from: "12", body: "x" })).statusCode).toBe(400);
    expect((await post(admin, `${whatsappId}/inbound`, { from: customerNumber(), body: "x", extra: 1 })).statusCode).toBe(400);
    expect((await post(admin, `${whatsappId}/ack`, { id: "X", ack: 7 })).statusCode).toBe(400);
    expect(
      (
        await post(admin, `${whatsappId}/inbound`, {
          from: customerNumber(),
          media: { mimetype: "image/png", filename: "a", dataBase64: "%%%" },
        })
      ).statusCode,
    ).toBe(400);
  });

  it("is for admins only, and signed-in ones", async () => {
    const forbidden = await post(agent, `${whatsappId}/inbound`, { from: customerNumber(), body: "x" });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error).toBe("ERR_NO_PERMISSION");
    // Refused before validation: a non-admin learns nothing about the body's shape.
    expect((await post(agent, `${whatsappId}/inbound`, {})).json().error).toBe("ERR_NO_PERMISSION");
    expect(
      (await t.app.inject({ method: "GET", url: `/api/simulator/${whatsappId}/outbound`, headers: agent.auth })).statusCode,
    ).toBe(403);
    expect((await post(undefined, `${whatsappId}/inbound`, { from: customerNumber(), body: "x" })).statusCode).toBe(401);
  });

  it("404 for unknown or non-simulator connections, 409 when not connected, 404 for unknown messages", async () => {
    expect((await post(admin, "999999/inbound", { from: customerNumber(), body: "x" })).json().error).toBe("ERR_NO_WAPP_FOUND");
    const baileys = await insertConnection(t.database.db, "baileys");
    expect((await post(admin, `${baileys}/inbound`, { from: customerNumber(), body: "x" })).json().error).toBe(
      "ERR_NO_WAPP_FOUND",
    );
    expect((await post(admin, `${whatsappId}/ack`, { id: "NEVER-SENT", ack: 2 })).json().error).toBe("ERR_NO_MESSAGE_FOUND");

    const dropped = (await makeSimulatorConnection(t, admin)).id;
    await t.sessions.disconnect(dropped);
    const notConnected = await post(admin, `${dropped}/inbound`, { from: customerNumber(), body: "x" });
    expect(notConnected.statusCode).toBe(409);
    expect(notConnected.json().error).toBe("ERR_WAPP_NOT_INITIALIZED");
  });

  it("disconnect drops the connection and the session manager reconnects it", async () => {
    const id = (await makeSimulatorConnection(t, admin)).id;
    expect((await post(admin, `${id}/disconnect`)).statusCode).toBe(200);
    expect(t.sessions.isConnected(id)).toBe(false);
    const deadline = Date.now() + 10_000;
    while (!t.sessions.isConnected(id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(t.sessions.isConnected(id)).toBe(true);
  });
});
