import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { WebhookDelivery } from "@zapdesk/core";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, eventually, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../../test/factories.js";
import { createTestApp, manualClock, type TestApp } from "../../../test/harness.js";
import { RETENTION_MS, RETRY_BASE_MS, RETRY_WINDOW_MS, UNREADABLE_SECRET } from "./delivery-worker.js";

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
}

/** A local receiver: `/ok` answers 200, `/fail` 500, `/flaky` 500 `flakyFailures` times then 200, `/redirect` a 302 to /ok. */
let received: Received[] = [];
let flakyFailures = 0;
let failAll = true;
const receiver: Server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const path = req.url ?? "/";
    received.push({ path, headers: req.headers, raw: Buffer.concat(chunks).toString("utf8") });
    if (path === "/slow") {
      res.writeHead(200);
      res.write("wait");
      return; // never ends
    }
    if (path === "/redirect") {
      res.writeHead(302, { location: `http://127.0.0.1:${port}/ok` }).end();
    } else if (path === "/fail" && failAll) {
      res.writeHead(500).end("x".repeat(5000));
    } else if (path === "/flaky" && flakyFailures > 0) {
      flakyFailures -= 1;
      res.writeHead(500).end("busy, try later");
    } else {
      res.writeHead(200, { "content-type": "text/plain" }).end("thanks");
    }
  });
});
let port = 0;

const clock = manualClock(new Date("2026-03-02T12:00:00Z"));
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  port = (receiver.address() as AddressInfo).port;
  t = await createTestApp({ clock });
  // The test drives the worker itself: no background polling between its steps.
  await t.outboundWebhooks.worker.stop();
  admin = await makeAdmin(t);
  await setting("enabled");
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => receiver.close(resolve));
});
beforeEach(async () => {
  received = [];
  // Earlier tests' webhooks stop listening.
  for (const w of (await call("GET", "/api/webhooks")).json().webhooks) await call("DELETE", `/api/webhooks/${w.id}`);
});

type Method = "GET" | "POST" | "PUT" | "DELETE";
const call = (method: Method, url: string, payload?: object) => t.app.inject({ method, url, headers: admin.auth, payload });
/** After the Clock moved on by hours, the admin signs in again. */
const refreshAuth = async () => {
  admin.auth = { authorization: `Bearer ${await t.services.tokens.signAccess(admin.id)}` };
};
const setting = async (value: "enabled" | "disabled") =>
  expect((await call("PUT", "/api/settings/webhookAllowPrivate", { value })).statusCode).toBe(200);
const register = async (path: string, events: string[], host = "127.0.0.1") => {
  const res = await call("POST", "/api/webhooks", { url: `http://${host}:${port}${path}`, events });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; secret: string };
};
const drain = () => t.outboundWebhooks.worker.drain();
const deliveries = async (webhookId: number) => {
  const res = await call("GET", `/api/webhooks/${webhookId}/deliveries`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().deliveries as WebhookDelivery[];
};
const newContact = async () => {
  const res = await call("POST", "/api/contacts", { name: "Webhook Customer", number: customerNumber() });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number };
};
const verify = (secret: string, r: Received) =>
  r.headers["x-zapdesk-signature"] === `sha256=${createHmac("sha256", secret).update(r.raw).digest("hex")}`;

describe("outbound webhooks: deliveries", () => {
  it("signs each delivery so the receiver can verify it from the raw body", async () => {
    const hook = await register("/ok", ["contact.created"]);
    const contact = await newContact();
    await drain();
    expect(received).toHaveLength(1);
    const [hit] = received;
    expect(verify(hook.secret, hit)).toBe(true);
    expect(verify("whsec_wrong", hit)).toBe(false);
    expect(hit.headers["content-type"]).toBe("application/json");
    expect(hit.headers["x-zapdesk-event"]).toBe("contact.created");
    expect(hit.headers["user-agent"]).toMatch(/^Zapdesk-Webhooks\//);
    const body = JSON.parse(hit.raw);
    expect(body).toMatchObject({ event: "contact.created", data: { contact: { id: contact.id, name: "Webhook Customer" } } });
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);

    const [delivery] = await deliveries(hook.id);
    expect(hit.headers["x-zapdesk-delivery"]).toBe(String(delivery.id));
    expect(delivery).toMatchObject({
      status: "success",
      attempt: 1,
      responseStatus: 200,
      responseSnippet: "thanks",
      error: null,
    });
    expect(delivery.latencyMs).toBeGreaterThanOrEqual(0);
    const list = (await call("GET", "/api/webhooks")).json().webhooks;
    expect(list[0].lastDelivery).toMatchObject({ status: "success", responseStatus: 200 });
  });

  it("fires message, ticket and contact events from a customer's message and the agent's work (not for other events)", async () => {
    const hook = await register("/ok", [
      "message.created",
      "ticket.created",
      "ticket.updated",
      "ticket.closed",
      "contact.created",
    ]);
    const onlyContacts = await register("/ok?only=contacts", ["contact.created"]);
    const connection = await makeSimulatorConnection(t, admin);
    await drain();
    received = [];
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, body: "Hello, I need help", name: "Ana" });
    const events = () => received.filter((r) => r.path === "/ok").map((r) => JSON.parse(r.raw).event as string);
    await eventually(async () => {
      await drain();
      expect(events()).toEqual(expect.arrayContaining(["contact.created", "ticket.created", "message.created"]));
    });
    const message = received.map((r) => JSON.parse(r.raw)).find((b) => b.event === "message.created");
    expect(message.data.message).toMatchObject({ body: "Hello, I need help", fromMe: false });
    expect(message.data.ticket.contact.number).toBe(from);
    const ticketId = message.data.ticket.id as number;
    expect(received.filter((r) => r.path === "/ok?only=contacts")).toHaveLength(1);

    received = [];
    expect((await call("PUT", `/api/tickets/${ticketId}`, { status: "open", userId: admin.id })).statusCode).toBe(200);
    expect((await call("POST", `/api/messages/${ticketId}`, { body: "On it!" })).statusCode).toBe(201);
    await drain();
    const bodies = received.filter((r) => r.path === "/ok").map((r) => JSON.parse(r.raw));
    const updated = bodies.find((b) => b.event === "ticket.updated");
    expect(updated.data).toMatchObject({
      ticket: { id: ticketId, status: "open" },
      previous: { status: "pending", userId: null },
    });
    expect(bodies.find((b) => b.event === "message.created")?.data.message).toMatchObject({ body: "On it!", fromMe: true });
    expect(bodies.some((b) => b.event === "ticket.closed")).toBe(false);

    received = [];
    expect((await call("PUT", `/api/tickets/${ticketId}`, { status: "closed" })).statusCode).toBe(200);
    await drain();
    const closing = received.filter((r) => r.path === "/ok").map((r) => JSON.parse(r.raw));
    expect(closing.filter((b) => b.event === "ticket.closed")).toHaveLength(1);
    expect(closing.find((b) => b.event === "ticket.closed").data).toMatchObject({
      ticket: { id: ticketId, status: "closed" },
      previous: { status: "open" },
    });
    expect(closing.some((b) => b.event === "ticket.updated")).toBe(true);
    expect(received.every((r) => verify(r.path === "/ok" ? hook.secret : onlyContacts.secret, r))).toBe(true);
  });

  it("retries a 500 with growing backoff on the Clock, then succeeds", async () => {
    flakyFailures = 2;
    const hook = await register("/flaky", ["contact.created"]);
    await newContact();
    await drain();
    let [d] = await deliveries(hook.id);
    expect(d).toMatchObject({
      status: "pending",
      attempt: 1,
      responseStatus: 500,
      responseSnippet: "busy, try later",
      error: "HTTP 500",
    });
    const firstGap = Date.parse(d.nextAttemptAt ?? "") - clock.now().getTime();
    expect(firstGap).toBeGreaterThanOrEqual(RETRY_BASE_MS * 0.8);
    expect(firstGap).toBeLessThanOrEqual(RETRY_BASE_MS * 1.2);
    // Not due yet: nothing happens however often the worker runs.
    await drain();
    expect((await deliveries(hook.id))[0].attempt).toBe(1);

    clock.advance(firstGap);
    await drain();
    [d] = await deliveries(hook.id);
    expect(d).toMatchObject({ status: "pending", attempt: 2 });
    const secondGap = Date.parse(d.nextAttemptAt ?? "") - clock.now().getTime();
    expect(secondGap).toBeGreaterThanOrEqual(RETRY_BASE_MS * 2 * 0.8);

    clock.advance(secondGap);
    await drain();
    [d] = await deliveries(hook.id);
    expect(d).toMatchObject({ status: "success", attempt: 3, responseStatus: 200, nextAttemptAt: null });
    // The same bytes every time: the receiver may deduplicate by X-Zapdesk-Delivery.
    expect(new Set(received.map((r) => r.raw)).size).toBe(1);
    expect(new Set(received.map((r) => r.headers["x-zapdesk-delivery"])).size).toBe(1);
  });

  it("gives up after a day of failures, and an admin resends the failed delivery", async () => {
    failAll = true;
    const hook = await register("/fail", ["contact.created"]);
    await newContact();
    const started = clock.now().getTime();
    let d: WebhookDelivery;
    for (;;) {
      await drain();
      [d] = await deliveries(hook.id);
      if (d.status !== "pending") break;
      clock.advance(Date.parse(d.nextAttemptAt ?? "") - clock.now().getTime());
      await refreshAuth();
    }
    expect(d.status).toBe("failed");
    expect(d.attempt).toBeGreaterThan(10);
    expect(d.attempt).toBe(received.length);
    expect(Date.parse(d.lastAttemptAt ?? "") - started).toBeLessThanOrEqual(RETRY_WINDOW_MS);
    expect(Date.parse(d.lastAttemptAt ?? "") - started).toBeGreaterThan(RETRY_WINDOW_MS - 2 * 60 * 60 * 1000);
    expect(d.responseSnippet?.length).toBe(1024);
    expect((await call("GET", `/api/webhooks/${hook.id}/deliveries?status=failed`)).json().count).toBe(1);

    failAll = false;
    const resent = await call("POST", `/api/webhooks/deliveries/${d.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({ id: d.id, status: "pending" });
    await drain();
    [d] = await deliveries(hook.id);
    expect(d).toMatchObject({ status: "success", responseStatus: 200 });
    const again = await call("POST", `/api/webhooks/deliveries/${d.id}/resend`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe("ERR_WEBHOOK_DELIVERY_NOT_FAILED");
    failAll = true;
  });

  it("delivers to a host name through the checked, pinned address when private targets are allowed", async () => {
    const hook = await register("/ok", ["contact.created"], "localhost");
    await newContact();
    await drain();
    expect(received).toHaveLength(1);
    expect(verify(hook.secret, received[0])).toBe(true);
    expect((await deliveries(hook.id))[0]).toMatchObject({ status: "success", responseStatus: 200 });
  });

  it("does not follow redirects: a 3xx is a failed attempt", async () => {
    const hook = await register("/redirect", ["contact.created"]);
    await newContact();
    await drain();
    const [d] = await deliveries(hook.id);
    expect(d).toMatchObject({ status: "pending", attempt: 1, responseStatus: 302 });
    expect(d.error).toMatch(/Redirect not followed/);
    expect(received.map((r) => r.path)).toEqual(["/redirect"]);
  });

  it("refuses private targets at delivery time once the setting is off again (literal and resolved)", async () => {
    const literal = await register("/ok", ["contact.created"]);
    const named = await register("/ok", ["contact.created"], "localhost");
    await setting("disabled");
    try {
      await newContact();
      await drain();
      for (const hook of [literal, named]) {
        const [d] = await deliveries(hook.id);
        expect(d.status).toBe("pending");
        expect(d.responseStatus).toBeNull();
        expect(d.error).toContain("ERR_WEBHOOK_PRIVATE_TARGET");
      }
      expect(received).toHaveLength(0);
    } finally {
      await setting("enabled");
    }
  });

  it("enqueues nothing for a disabled webhook; disabling one fails its queued deliveries, which can be resent", async () => {
    const hook = await register("/ok", ["contact.created"]);
    await call("PUT", `/api/webhooks/${hook.id}`, { enabled: false });
    await newContact();
    expect(await deliveries(hook.id)).toHaveLength(0);
    await call("PUT", `/api/webhooks/${hook.id}`, { enabled: true });
    await newContact();
    await call("PUT", `/api/webhooks/${hook.id}`, { enabled: false });
    let [d] = await deliveries(hook.id);
    expect(d).toMatchObject({ status: "failed", attempt: 0, error: "The webhook is disabled" });
    await drain();
    expect(received).toHaveLength(0);
    await call("PUT", `/api/webhooks/${hook.id}`, { enabled: true });
    expect((await call("POST", `/api/webhooks/deliveries/${d.id}/resend`)).statusCode).toBe(200);
    await drain();
    [d] = await deliveries(hook.id);
    expect(d).toMatchObject({ status: "success", attempt: 1, responseStatus: 200, error: null });
    expect(received).toHaveLength(1);
  });

  it("times out a receiver that never finishes its answer", async () => {
    const hook = await register("/slow", ["contact.created"]);
    const { createDeliveryWorker } = await import("./delivery-worker.js");
    const { createSecretBox } = await import("../../lib/secret-box.js");
    // A worker of its own with a short deadline (the app's is 10 s).
    const worker = createDeliveryWorker({
      db: t.database.db,
      secrets: createSecretBox(t.config.encryptionKey),
      logger: t.app.log,
      clock,
      timeoutMs: 300,
    });
    await newContact();
    await worker.drain();
    const [d] = await deliveries(hook.id);
    expect(d).toMatchObject({ status: "pending", attempt: 1, responseStatus: null });
    expect(d.error).toMatch(/Timed out after 300 ms/);
  });

  it("skips private notes (messages whose is_note is true)", async () => {
    const hook = await register("/ok", ["message.created"]);
    const db = t.database.db;
    // The notes feature adds this column; here it is added if missing, to prove the trigger honours it.
    await db.execute(sql`alter table messages add column if not exists is_note boolean not null default false`);
    const contact = await newContact();
    const ticket = (await db.execute(
      sql`insert into tickets (contact_id, status) values (${contact.id}, 'open') returning id`,
    )) as unknown as {
      rows: { id: number }[];
    };
    const ticketId = ticket.rows[0].id;
    await db.execute(
      sql`insert into messages (ticket_id, body, from_me, is_note) values (${ticketId}, 'internal only', true, true), (${ticketId}, 'to the customer', true, false)`,
    );
    await drain();
    const sent = received.map((r) => JSON.parse(r.raw));
    expect(sent.map((b) => b.data.message.body)).toEqual(["to the customer"]);
    expect(await deliveries(hook.id)).toHaveLength(1);
  });

  it("keeps finished deliveries in the log for 30 days", async () => {
    const hook = await register("/ok", ["contact.created"]);
    await newContact();
    await drain();
    expect(await deliveries(hook.id)).toHaveLength(1);
    expect(await t.outboundWebhooks.worker.prune()).toBe(0);
    clock.advance(RETENTION_MS + 60_000);
    await refreshAuth();
    // A newer one is kept.
    await newContact();
    await drain();
    expect(await t.outboundWebhooks.worker.prune()).toBeGreaterThanOrEqual(1);
    const left = await deliveries(hook.id);
    expect(left).toHaveLength(1);
    expect(left[0].status).toBe("success");
  });

  it("records an unreadable secret (another ENCRYPTION_KEY) as a failed attempt, not a crash", async () => {
    const hook = await register("/ok", ["contact.created"]);
    const { createDeliveryWorker } = await import("./delivery-worker.js");
    const { createSecretBox } = await import("../../lib/secret-box.js");
    const worker = createDeliveryWorker({
      db: t.database.db,
      secrets: createSecretBox("another key, another installation, 32+ chars"),
      logger: t.app.log,
      clock,
    });
    await newContact();
    await worker.drain();
    const [d] = await deliveries(hook.id);
    expect(d).toMatchObject({ status: "pending", attempt: 1, error: UNREADABLE_SECRET });
    expect(received).toHaveLength(0);
  });
});
