import { randomBytes } from "node:crypto";
import type { Connection, Message } from "@zapdesk/core";
import { expect } from "vitest";
import type { Config } from "../src/config.js";
import type { Database } from "../src/db/client.js";
import type { Clock } from "../src/lib/clock.js";
import { eventually } from "./conversation.js";
import type { TestUser } from "./factories.js";
import { type GraphFake, startGraphFake } from "./graph-fake/index.js";
import { createWebhookDriver, type WebhookDriver } from "./graph-fake/webhook-driver.js";
import { createTestApp, type TestApp } from "./harness.js";

let counter = 0;
const digits = (n: number) => Array.from(randomBytes(n), (b) => String(b % 10)).join("");

/** A test app listening on a real port (Meta's webhook driver posts to it) with its Graph API fake. */
export async function startCloudApp(
  options: { database?: Database; fake?: GraphFake; config?: Partial<Config>; clock?: Clock } = {},
) {
  const fake = options.fake ?? (await startGraphFake());
  const t = await createTestApp({
    config: { graphUrl: fake.url, ...options.config },
    database: options.database,
    clock: options.clock,
  });
  const origin = await t.app.listen({ host: "127.0.0.1", port: 0 });
  return {
    t,
    fake,
    origin,
    async close() {
      await t.close();
      if (!options.fake) await fake.close();
    },
  };
}

export interface CloudConnection {
  connection: Connection;
  phoneNumberId: string;
  businessAccountId: string;
  accessToken: string;
  appSecret: string;
  webhookPath: string;
  /** Meta's side of the webhook, posting to `origin` (defaults to the app that created it). */
  meta: WebhookDriver;
  metaTo(origin: string): WebhookDriver;
}

/** A Cloud API connection created through the API with fresh Meta ids, waited on until CONNECTED. */
export async function makeCloudConnection(
  app: { t: TestApp; fake: GraphFake; origin: string },
  admin: TestUser,
): Promise<CloudConnection> {
  counter += 1;
  const phoneNumberId = `10${digits(12)}${counter}`;
  const businessAccountId = `20${digits(12)}${counter}`;
  const accessToken = `EAAG${randomBytes(24).toString("hex")}`;
  const appSecret = randomBytes(16).toString("hex");
  app.fake.addAccount({ phoneNumberId, businessAccountId, accessToken, displayPhoneNumber: "+1 555-0100" });
  const res = await app.t.app.inject({
    method: "POST",
    url: "/api/whatsapp",
    headers: admin.auth,
    payload: {
      name: `Cloud ${phoneNumberId.slice(-6)}`,
      provider: "cloud",
      cloud: { phoneNumberId, businessAccountId, accessToken, appSecret },
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const created = res.json() as Connection;
  const connection = await eventually(async () => {
    const current = await app.t.app.inject({ method: "GET", url: `/api/whatsapp/${created.id}`, headers: admin.auth });
    const value = current.json() as Connection;
    expect(value.status).toBe("CONNECTED");
    return value;
  });
  const webhookPath = `/api/webhooks/whatsapp/${created.id}`;
  const business = { phoneNumberId, businessAccountId, displayPhoneNumber: "15550100" };
  const metaTo = (origin: string) => createWebhookDriver({ url: `${origin}${webhookPath}`, appSecret, business });
  return { connection, phoneNumberId, businessAccountId, accessToken, appSecret, webhookPath, meta: metaTo(app.origin), metaTo };
}

/** The messages of a ticket, oldest first (page 1 holds the newest 20). */
export async function messagesOf(t: TestApp, user: TestUser, ticketId: number): Promise<Message[]> {
  const res = await t.app.inject({ method: "GET", url: `/api/messages/${ticketId}`, headers: user.auth });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { messages: Message[] }).messages;
}

export const customerPhone = () => `55119${digits(8)}`;
