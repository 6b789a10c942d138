import { createHmac } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CloudConnection, customerPhone, makeCloudConnection, startCloudApp } from "../../../test/cloud-rig.js";
import { eventually, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../../test/factories.js";
import { payloads } from "../../../test/graph-fake/index.js";
import { expectNoLeak } from "../../../test/harness.js";
import { contacts, inboundEvents, tickets } from "../../db/schema.js";
import { WEBHOOK_BODY_LIMIT } from "./webhooks.routes.js";

describe("Cloud API webhook routes", () => {
  let app: Awaited<ReturnType<typeof startCloudApp>>;
  let admin: TestUser;
  let cloud: CloudConnection;
  let second: CloudConnection;

  beforeAll(async () => {
    app = await startCloudApp();
    admin = await makeAdmin(app.t);
    cloud = await makeCloudConnection(app, admin);
    second = await makeCloudConnection(app, admin);
  });
  afterAll(async () => app?.close());

  const handshake = (path: string, query: Record<string, string>) => app.t.app.inject({ method: "GET", url: path, query });

  it("answers Meta's handshake with the challenge as text, and 403 to a wrong token or mode", async () => {
    const token = cloud.connection.cloud?.verifyToken as string;
    expect(token.length).toBeGreaterThanOrEqual(16);
    const ok = await handshake(cloud.webhookPath, {
      "hub.mode": "subscribe",
      "hub.verify_token": token,
      "hub.challenge": "1158201444",
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers["content-type"]).toMatch(/^text\/plain/);
    expect(ok.body).toBe("1158201444");
    const attempts: Record<string, string>[] = [
      { "hub.mode": "subscribe", "hub.verify_token": `${token}x`, "hub.challenge": "1" },
      { "hub.mode": "unsubscribe", "hub.verify_token": token, "hub.challenge": "1" },
      { "hub.challenge": "1" },
    ];
    for (const query of attempts) {
      const res = await handshake(cloud.webhookPath, query);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: "ERR_WEBHOOK_VERIFY_TOKEN" });
    }
    // The other connection's token does not open this one.
    const crossed = await handshake(cloud.webhookPath, {
      "hub.mode": "subscribe",
      "hub.verify_token": second.connection.cloud?.verifyToken as string,
      "hub.challenge": "1",
    });
    expect(crossed.statusCode).toBe(403);
  });

  it("bad, unknown and non-Cloud connection ids are 404 with a code, never a 500", async () => {
    const simulator = await makeSimulatorConnection(app.t, admin);
    for (const id of ["abc", "0", "-1", "1.5", "99999999999", "2147483648", "999999", String(simulator.id)]) {
      for (const method of ["GET", "POST"] as const) {
        const res = await app.t.app.inject({
          method,
          url: `/api/webhooks/whatsapp/${id}`,
          payload: method === "POST" ? "{}" : undefined,
        });
        expect(res.statusCode, `${method} ${id}`).toBe(404);
        expect(res.json()).toMatchObject({ error: "ERR_NO_WAPP_FOUND" });
      }
    }
  });

  it("refuses signed garbage with 400 and an oversized body with 413, without storing either", async () => {
    for (const raw of ["not json", "null", "42", '"text"', ""]) {
      const signature = `sha256=${createHmac("sha256", cloud.appSecret).update(raw).digest("hex")}`;
      const garbage = await app.t.app.inject({
        method: "POST",
        url: cloud.webhookPath,
        headers: { "content-type": "application/json", "x-hub-signature-256": signature },
        payload: raw,
      });
      expect(garbage.statusCode, raw).toBe(400);
      expect(garbage.json()).toMatchObject({ error: "ERR_VALIDATION" });
      expectNoLeak(garbage.body);
    }
    const huge = await app.t.app.inject({
      method: "POST",
      url: cloud.webhookPath,
      headers: { "content-type": "application/json", "x-hub-signature-256": "sha256=00" },
      payload: `{"x":"${"a".repeat(WEBHOOK_BODY_LIMIT)}"}`,
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ error: "ERR_PAYLOAD_TOO_LARGE" });
    const events = await app.t.database.db.select().from(inboundEvents).where(eq(inboundEvents.whatsappId, cloud.connection.id));
    expect(events).toEqual([]);
  });

  it("routes each change to the connection of its phone number id, and ignores numbers nobody has", async () => {
    const from = customerPhone();
    // Delivered to the first connection's URL (one app, several numbers), about the second's number.
    const driver = second.metaTo(app.origin);
    const payload = driver.message(payloads.text({ from, body: "para o segundo número" }));
    const signed = `sha256=${createHmac("sha256", cloud.appSecret).update(JSON.stringify(payload)).digest("hex")}`;
    const res = await app.t.app.inject({
      method: "POST",
      url: cloud.webhookPath,
      headers: { "content-type": "application/json", "x-hub-signature-256": signed },
      payload: JSON.stringify(payload),
    });
    expect(res.statusCode).toBe(200);
    await eventually(async () => {
      const rows = await app.t.database.db
        .select({ whatsappId: tickets.whatsappId })
        .from(tickets)
        .innerJoin(contacts, eq(contacts.id, tickets.contactId))
        .where(eq(contacts.number, from));
      expect(rows).toEqual([{ whatsappId: second.connection.id }]);
    });

    const stray = payloads.inbound(
      { phoneNumberId: "1", businessAccountId: "2", displayPhoneNumber: "3" },
      payloads.text({ from: customerPhone(), body: "ninguém" }),
    );
    const [ignored] = await cloud.meta.deliver(stray);
    expect(ignored.status).toBe(200);
    await eventually(async () => {
      const [event] = await app.t.database.db
        .select()
        .from(inboundEvents)
        .where(eq(inboundEvents.whatsappId, cloud.connection.id))
        .orderBy(inboundEvents.id)
        .then((rows) => rows.filter((r) => JSON.stringify(r.payload).includes("ninguém")));
      expect(event.status).toBe("done");
    });
  });

  it("a status that overtakes its message stays pending for another attempt instead of being lost", async () => {
    const wid = payloads.newWamid();
    await cloud.meta.deliver(cloud.meta.statuses([{ id: wid, status: "delivered", recipientId: customerPhone() }]));
    const event = await eventually(async () => {
      const [row] = await app.t.database.db
        .select()
        .from(inboundEvents)
        .where(and(eq(inboundEvents.whatsappId, cloud.connection.id), eq(inboundEvents.attempts, 1)));
      expect(row).toBeDefined();
      return row;
    });
    expect(event).toMatchObject({ status: "pending", lastError: expect.stringContaining("before its message") });
  });
});
