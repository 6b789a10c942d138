import type { AddressInfo } from "node:net";
import type { Connection, Message, Ticket } from "@zapdesk/core";
import { eq, sql } from "drizzle-orm";
import { io as connectClient, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, eventually, makeSimulatorConnection, phoneReceived } from "../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../test/factories.js";
import { createTestApp, openTestDatabase, type TestApp } from "../../test/harness.js";
import { type Database, openDatabase } from "../db/client.js";
import { outbox, whatsapps } from "../db/schema.js";
import { LEASE_TIMING } from "./session-lease.js";

const scaled = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);

/**
 * Two processes of a scaled-out install on one PostgreSQL and Redis. A owns a connection and dies
 * (it loses its database: no renewal, no goodbye); B shows the connection as having no owner and
 * takes it over at its next look for orphans, with what A had claimed in the outbox.
 */
describe.skipIf(!scaled)("connection takeover when the owning process dies", () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  /** A's own pool: closing it is A's death, as far as the rest of the fleet can tell. */
  let aDatabase: Database;
  let a: TestApp;
  let b: TestApp;
  let admin: TestUser;
  let socket: Socket | undefined;

  beforeAll(async () => {
    database = await openTestDatabase();
    aDatabase = await openDatabase({ url: database.url, poolSize: 3 });
    a = await createTestApp({ database: aDatabase });
    const { jwtSecret, jwtRefreshSecret, encryptionKey } = a.config;
    b = await createTestApp({ database, config: { jwtSecret, jwtRefreshSecret, encryptionKey } });
    admin = await makeAdmin(b);
  });
  afterAll(async () => {
    socket?.disconnect();
    await b?.close();
    await a?.close();
    await database?.close();
    await database?.drop();
  });

  /** Every whatsappSession event an admin's browser connected to B receives. */
  async function watchB() {
    await b.app.listen({ port: 0, host: "127.0.0.1" });
    const url = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
    socket = connectClient(url, { auth: { token: admin.token }, transports: ["websocket"], reconnection: false });
    const seen: Pick<Connection, "id" | "status" | "statusReason">[] = [];
    socket.on("whatsappSession", (payload: { session: Connection }) => seen.push(payload.session));
    await new Promise<void>((resolve, reject) => {
      socket?.once("connect", () => resolve());
      socket?.once("connect_error", reject);
    });
    return seen;
  }

  it("says NO_OWNER and takes over within the documented lease time, sending what the dead owner held", async () => {
    expect(LEASE_TIMING.ttlMs + LEASE_TIMING.renewMs).toBeLessThanOrEqual(10_000);
    const connection = await makeSimulatorConnection(a, admin);
    expect(a.sessions.isConnected(connection.id)).toBe(true);
    const [lease] = await database.db
      .select({ owner: whatsapps.leaseOwner, left: sql<number>`extract(epoch from lease_expires_at - now()) * 1000` })
      .from(whatsapps)
      .where(eq(whatsapps.id, connection.id));
    expect(lease.owner).toBeTruthy();
    expect(Number(lease.left)).toBeLessThanOrEqual(LEASE_TIMING.ttlMs);

    // A customer writes; the agent's reply is claimed by A's outbox, which dies before sending it.
    const customer = customerNumber();
    await customerWrites(a, admin, connection.id, { from: customer, body: "alguém aí?" });
    const list = await b.app.inject({
      method: "GET",
      url: "/api/tickets",
      headers: admin.auth,
      query: { showAll: "true", searchParam: customer },
    });
    const ticket = (list.json() as { tickets: Ticket[] }).tickets[0];
    await b.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket.id}`,
      headers: admin.auth,
      payload: { status: "open", userId: admin.id },
    });
    await a.outbox.stop();
    const reply = await b.app.inject({
      method: "POST",
      url: `/api/messages/${ticket.id}`,
      headers: admin.auth,
      payload: { body: "sim, estou aqui" },
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const replyId = (reply.json() as Message).id;
    await database.db
      .update(outbox)
      .set({ lockedUntil: sql`now() + interval '1 minute'`, attempts: 1 })
      .where(eq(outbox.messageId, replyId));

    const seen = await watchB();
    await aDatabase.close();
    // A's last renewal runs out (what LEASE_TIMING.ttlMs of silence does), without waiting for it here.
    await database.db
      .update(whatsapps)
      .set({ leaseExpiresAt: sql`now() - interval '1 millisecond'` })
      .where(eq(whatsapps.id, connection.id));

    await eventually(() => expect(b.sessions.isConnected(connection.id)).toBe(true), LEASE_TIMING.renewMs + 5_000);
    const mine = () => seen.filter((s) => s.id === connection.id).map((s) => [s.status, s.statusReason]);
    await eventually(() => expect(mine().at(-1)).toEqual(["CONNECTED", null]));
    // The truth first (no process holds it), kept while B opens it, until B has it connected.
    expect(mine()[0]).toEqual(["TIMEOUT", "NO_OWNER"]);
    expect(mine()[1]).toEqual(["OPENING", "NO_OWNER"]);
    const [owner] = await database.db
      .select({ owner: whatsapps.leaseOwner })
      .from(whatsapps)
      .where(eq(whatsapps.id, connection.id));
    expect(owner.owner).not.toBe(lease.owner);

    // A's claim was released with the takeover: the reply leaves through B at once, not a minute later.
    await eventually(async () =>
      expect((await phoneReceived(b, admin, connection.id, customer)).map((m) => m.body)).toEqual(["sim, estou aqui"]),
    );
  });
});

if (!scaled) {
  describe("connection takeover", () => {
    it.skip("skipped: set TEST_DATABASE_URL and TEST_REDIS_URL to run the two-process takeover test", () => {});
  });
}
