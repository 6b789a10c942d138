import type { Message } from "@zapdesk/core";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contacts, inboundEvents, messages, tickets, whatsapps } from "../src/db/schema.js";
import { type CloudConnection, customerPhone, makeCloudConnection, messagesOf, startCloudApp } from "./cloud-rig.js";
import { eventually } from "./conversation.js";
import { makeAdmin, type TestUser } from "./factories.js";
import { type GraphFake, payloads, startGraphFake } from "./graph-fake/index.js";
import { openTestDatabase } from "./harness.js";

const scaled = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);

/**
 * Two processes of a scaled-out install on one PostgreSQL and Redis. Process A owns the Cloud API
 * connection (its lease); Meta's webhook reaches B, which must store the message once all the same.
 */
describe.skipIf(!scaled)("Cloud API scaled out: the webhook reaches the process that does not own the connection", () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let fake: GraphFake;
  let a: Awaited<ReturnType<typeof startCloudApp>>;
  let b: Awaited<ReturnType<typeof startCloudApp>>;
  let admin: TestUser;
  let cloud: CloudConnection;

  beforeAll(async () => {
    database = await openTestDatabase();
    fake = await startGraphFake();
    a = await startCloudApp({ database, fake });
    // The same secrets as any deployment's processes share: tokens, and the key of the sealed Meta secrets.
    const { jwtSecret, jwtRefreshSecret, encryptionKey } = a.t.config;
    b = await startCloudApp({ database, fake, config: { jwtSecret, jwtRefreshSecret, encryptionKey } });
    admin = await makeAdmin(a.t);
    cloud = await makeCloudConnection(a, admin);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await fake?.close();
    await database?.close();
    await database?.drop();
  });

  it("stores the message once, whichever process Meta's deliveries hit, and the owner sends the reply", async () => {
    const [owner] = await database.db
      .select({ lease: whatsapps.leaseOwner })
      .from(whatsapps)
      .where(eq(whatsapps.id, cloud.connection.id));
    expect(owner.lease).toBeTruthy();
    expect(a.t.sessions.isConnected(cloud.connection.id)).toBe(true);
    expect(b.t.sessions.isConnected(cloud.connection.id)).toBe(false);

    const from = customerPhone();
    const first = payloads.text({ from, body: "cheguei pelo B" });
    const toB = cloud.metaTo(b.origin);
    const toA = cloud.metaTo(a.origin);
    const payload = toB.message(first, "Léo");
    // B first, then the same delivery to both at once, then B again.
    await toB.deliver(payload);
    await Promise.all([toA.deliver(payload), toB.deliver(payload)]);
    await toB.deliver(payload, { times: 2 });

    const ticketId = await eventually(async () => {
      const [row] = await database.db
        .select({ id: tickets.id })
        .from(tickets)
        .innerJoin(contacts, eq(contacts.id, tickets.contactId))
        .where(and(eq(contacts.number, from), eq(tickets.whatsappId, cloud.connection.id)));
      expect(row).toBeDefined();
      return row.id;
    });
    await a.t.cloudWebhooks.runOnce();
    await b.t.cloudWebhooks.runOnce();
    const stored = await messagesOf(b.t, admin, ticketId);
    expect(stored.filter((m) => m.body === "cheguei pelo B")).toHaveLength(1);
    // The delivery is marked done after its processing, which follows the answer to Meta: a moment
    // after the ticket shows, on a loaded machine.
    await eventually(async () => {
      const events = await database.db.select().from(inboundEvents).where(eq(inboundEvents.whatsappId, cloud.connection.id));
      expect(events).toHaveLength(1);
      expect(events[0].status).toBe("done");
    });

    // The agent answers through B; only A has the live session, so A's outbox sends it.
    const accepted = await b.t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticketId}`,
      headers: admin.auth,
      payload: { status: "open", userId: admin.id },
    });
    expect(accepted.statusCode).toBe(200);
    const res = await b.t.app.inject({
      method: "POST",
      url: `/api/messages/${ticketId}`,
      headers: admin.auth,
      payload: { body: "respondido" },
    });
    expect(res.statusCode, res.body).toBe(201);
    const sent = await eventually(async () => {
      const [row] = await database.db
        .select()
        .from(messages)
        .where(eq(messages.id, (res.json() as Message).id));
      expect(row.wid).toMatch(/^wamid\./);
      return row;
    });
    expect(
      fake.sentMessages(cloud.phoneNumberId).filter((m) => (m.text as { body?: string })?.body === "respondido"),
    ).toHaveLength(1);

    // Its statuses reach B and move the ack all the same.
    await toB.deliver(toB.statuses([{ id: sent.wid as string, status: "delivered", recipientId: from }]));
    await eventually(async () => {
      const [row] = await database.db.select().from(messages).where(eq(messages.id, sent.id));
      expect(row.ack).toBe(2);
    });
  });
});

if (!scaled) {
  describe("Cloud API scaled out", () => {
    it.skip("skipped: set TEST_DATABASE_URL and TEST_REDIS_URL to run the two-process webhook test", () => {});
  });
}
