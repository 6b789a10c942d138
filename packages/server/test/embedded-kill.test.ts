import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { embeddedConnection } from "../src/db/client.js";
import { type GraphFake, payloads, startGraphFake } from "./graph-fake/index.js";
import { createWebhookDriver } from "./graph-fake/webhook-driver.js";
import { freePort, signIn, startZapdesk, type ZapdeskProcess } from "./zapdesk-process.js";

/**
 * Issue 19's audit, on the embedded PostgreSQL: customers write through Meta's webhook and an
 * agent answers, while the Zapdesk process is killed with SIGKILL. Meta redelivers what it was
 * not answered 200 for (and some of what it was); the restarted Zapdesk on the same DATA_DIR must
 * hold every acknowledged message and reply exactly once, and send every accepted reply.
 */
const dataDir = mkdtempSync(join(tmpdir(), "zapdesk-kill-ingest-"));
let fake: GraphFake;
let server: ZapdeskProcess | undefined;
afterAll(async () => {
  server?.child.kill("SIGTERM");
  await server?.exited;
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const hex = (n: number) => randomBytes(n).toString("hex");

describe("kill -9 of the embedded Zapdesk during ingest and replies, then a restart", () => {
  it("loses nothing acknowledged and stores nothing twice", async () => {
    fake = await startGraphFake();
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port), WHATSAPP_GRAPH_URL: fake.url, LOG_LEVEL: "warn" };
    server = await startZapdesk(env);
    await server.healthy();
    let { headers, userId } = await signIn(server.origin);

    const phoneNumberId = `10${Date.now()}`;
    const businessAccountId = `20${Date.now()}`;
    const accessToken = `EAAG${hex(24)}`;
    const appSecret = hex(16);
    fake.addAccount({ phoneNumberId, businessAccountId, accessToken, displayPhoneNumber: "+1 555-0100" });
    const created = await fetch(`${server.origin}/api/whatsapp`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        name: "Cloud",
        provider: "cloud",
        cloud: { phoneNumberId, businessAccountId, accessToken, appSecret },
      }),
    });
    expect(created.status, await created.clone().text()).toBe(200);
    const { id: whatsappId } = (await created.json()) as { id: number };
    const meta = createWebhookDriver({
      url: `${server.origin}/api/webhooks/whatsapp/${whatsappId}`,
      appSecret,
      business: { phoneNumberId, businessAccountId, displayPhoneNumber: "15550100" },
    });

    // Ten customers, 30 messages each, from five deliveries in parallel.
    const customers = Array.from({ length: 10 }, (_, i) => `5511${String(900000000 + i * 7919)}`);
    const inbound = customers.flatMap((from, c) =>
      Array.from({ length: 30 }, (_, i) => {
        const body = `c${c}-m${i}-${hex(3)}`;
        return { body, payload: meta.message(payloads.text({ from, body }), `C${c}`) };
      }),
    );
    const acknowledged = new Set<string>();
    const deliver = async (item: (typeof inbound)[number]) => {
      const [result] = await meta.deliver(item.payload).catch(() => [{ status: 0, body: "" }]);
      if (result!.status === 200) acknowledged.add(item.body);
    };
    let killed = false;
    const streams = Array.from({ length: 5 }, async (_, s) => {
      for (let i = s; i < inbound.length && !killed; i += 5) await deliver(inbound[i]!);
    });

    // The agent takes the tickets as they appear and answers them.
    const accepted = new Set<string>();
    const tried = new Set<string>();
    const taken = new Set<number>();
    const replies = (async () => {
      for (let k = 0; !killed; k++) {
        const list = await fetch(`${server!.origin}/api/tickets?showAll=true`, { headers }).catch(() => undefined);
        const tickets = list?.ok ? ((await list.json()) as { tickets: { id: number }[] }).tickets : [];
        for (const ticket of tickets.slice(0, 3)) {
          if (!taken.has(ticket.id)) {
            const put = await fetch(`${server!.origin}/api/tickets/${ticket.id}`, {
              method: "PUT",
              headers,
              body: JSON.stringify({ status: "open", userId }),
            }).catch(() => undefined);
            if (put?.ok) taken.add(ticket.id);
          }
          const body = `reply-${k}-${ticket.id}-${hex(3)}`;
          tried.add(body);
          const res = await fetch(`${server!.origin}/api/messages/${ticket.id}`, {
            method: "POST",
            headers,
            body: JSON.stringify({ body }),
          }).catch(() => undefined);
          if (res?.status === 201) accepted.add(body);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    })();

    await vi.waitFor(() => expect(acknowledged.size).toBeGreaterThanOrEqual(120), { timeout: 120_000, interval: 20 });
    server.child.kill("SIGKILL");
    killed = true;
    await server.exited;
    await Promise.all([...streams, replies]);
    expect(acknowledged.size).toBeLessThan(inbound.length);

    server = await startZapdesk(env);
    await server.healthy();
    ({ headers, userId } = await signIn(server.origin));
    // Meta redelivers what it got no 200 for, and duplicates a few it did.
    for (const item of inbound.filter((m) => !acknowledged.has(m.body))) await deliver(item);
    for (const item of inbound.slice(0, 20)) await deliver(item);
    expect(acknowledged.size).toBe(inbound.length);

    const db = new pg.Client(embeddedConnection(dataDir).url);
    await db.connect();
    try {
      const count = async (bodies: string[]) => {
        const { rows } = await db.query<{ body: string; n: number }>(
          "select body, count(*)::int as n from messages where body = any($1) group by body",
          [bodies],
        );
        return new Map(rows.map((r) => [r.body, r.n]));
      };
      await vi.waitFor(
        async () => {
          const stored = await count(inbound.map((m) => m.body));
          expect(inbound.filter((m) => stored.get(m.body) !== 1).map((m) => m.body)).toEqual([]);
        },
        { timeout: 60_000, interval: 250 },
      );
      expect(accepted.size).toBeGreaterThan(0);
      const replyCounts = await count([...tried]);
      expect([...accepted].filter((body) => replyCounts.get(body) !== 1)).toEqual([]);
      expect([...tried].filter((body) => (replyCounts.get(body) ?? 0) > 1)).toEqual([]);
      // Every accepted reply reaches Meta; one interrupted mid-send may go twice (WhatsApp dedupes by id).
      await vi.waitFor(
        () => {
          const sent = fake.sentMessages(phoneNumberId).map((m) => (m.text as { body?: string } | undefined)?.body);
          expect([...accepted].filter((body) => !sent.includes(body))).toEqual([]);
          expect(sent.filter((body, i) => body && sent.indexOf(body) !== i).length).toBeLessThanOrEqual(1);
        },
        { timeout: 60_000, interval: 250 },
      );
    } finally {
      await db.end();
    }
  }, 400_000);
});
