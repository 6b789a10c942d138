import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { ChannelSession, OutboundMessage } from "../channels/channel.js";
import type { Db } from "../db/client.js";
import { contacts, messages, outbox, tickets } from "../db/schema.js";

const BATCH = 20;
const LEASE_SECONDS = 60;
const MAX_BACKOFF_MS = 10 * 60 * 1000;

export interface OutboxWorkerDeps {
  db: Db;
  mediaRoot: string;
  /** The live session of a connection; throws when it is not connected. */
  session(whatsappId: number): ChannelSession;
  /** Connections with a live session in this process: only their messages are claimed here. */
  connectedIds(): Promise<number[]>;
  logger: FastifyBaseLogger;
  pollMs?: number;
  /** Called after a message left, with its id (to publish the new state). */
  onSent?(messageId: number): void;
}

interface Claimed {
  message_id: number;
  attempts: number;
}

/**
 * Sends what `enqueueOutbound` stored. Rows are claimed with SKIP LOCKED and a
 * lease, so several processes share the work and a crash hands rows to the next
 * run; a failure is retried with capped exponential backoff.
 */
export function createOutboxWorker(deps: OutboxWorkerDeps) {
  const { db, logger } = deps;
  const pollMs = deps.pollMs ?? 1000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;

  async function claim(): Promise<Claimed[]> {
    const connected = await deps.connectedIds();
    if (connected.length === 0) return [];
    // Messages of connections without a live session wait here, untouched, until one connects.
    const result = (await db.execute(sql`
      update ${outbox} set locked_until = now() + make_interval(secs => ${LEASE_SECONDS}), attempts = attempts + 1
      where message_id in (
        select o.message_id from ${outbox} o join ${messages} m on m.id = o.message_id
        where o.run_at <= now() and (o.locked_until is null or o.locked_until < now())
          and (m.whatsapp_id is null or m.whatsapp_id in (${sql.join(
            connected.map((id) => sql`${id}`),
            sql`, `,
          )}))
        order by o.run_at, o.message_id
        limit ${BATCH}
        for update of o skip locked
      )
      returning message_id, attempts`)) as unknown as { rows: Claimed[] };
    return result.rows
      .map((r) => ({ message_id: Number(r.message_id), attempts: Number(r.attempts) }))
      .sort((a, b) => a.message_id - b.message_id);
  }

  async function buildOutbound(messageId: number) {
    const [row] = await db
      .select({ message: messages, number: contacts.number, isGroup: tickets.isGroup })
      .from(messages)
      .innerJoin(tickets, eq(tickets.id, messages.ticketId))
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(eq(messages.id, messageId));
    if (!row) return undefined;
    const { message } = row;
    const outbound: OutboundMessage = { id: message.wid ?? undefined, to: row.number, isGroup: row.isGroup, body: message.body };
    if (message.mediaPath) {
      outbound.media = {
        data: await readFile(join(deps.mediaRoot, message.mediaPath)),
        mimetype: message.mediaMime ?? "application/octet-stream",
        filename: message.mediaName ?? "file",
        asVoice: (message.raw as { asVoice?: boolean } | null)?.asVoice === true,
      };
    }
    if (message.quotedMsgId) {
      const [quoted] = await db.select().from(messages).where(eq(messages.id, message.quotedMsgId));
      if (quoted?.wid)
        outbound.quoted = { wid: quoted.wid, fromMe: quoted.fromMe, body: quoted.body, raw: quoted.raw ?? undefined };
    }
    return { message, outbound };
  }

  async function deliver(item: Claimed) {
    const built = await buildOutbound(item.message_id);
    if (!built || built.message.whatsappId === null || built.message.isDeleted) {
      // Connection or message gone: nothing can be sent any more.
      await db.delete(outbox).where(eq(outbox.messageId, item.message_id));
      return;
    }
    try {
      const sent = await deps.session(built.message.whatsappId).send(built.outbound);
      await db.transaction(async (tx) => {
        if (sent.wid !== built.message.wid) {
          await tx.update(messages).set({ wid: sent.wid, updatedAt: new Date() }).where(eq(messages.id, item.message_id));
        }
        await tx.delete(outbox).where(eq(outbox.messageId, item.message_id));
      });
      deps.onSent?.(item.message_id);
    } catch (error) {
      const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(item.attempts, 20));
      logger.warn({ err: error, messageId: item.message_id, attempts: item.attempts }, "outbound message not sent, will retry");
      await db
        .update(outbox)
        .set({
          lockedUntil: null,
          runAt: new Date(Date.now() + delay),
          lastError: String((error as Error)?.message ?? error).slice(0, 500),
        })
        .where(eq(outbox.messageId, item.message_id));
    }
  }

  async function tick() {
    do {
      again = false;
      const claimed = await claim();
      for (const item of claimed) await deliver(item);
      if (claimed.length === BATCH) again = true;
    } while (again && !stopped);
  }

  function run() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = tick()
      .catch((error) => logger.error({ err: error }, "outbox tick failed"))
      .finally(() => {
        running = undefined;
      });
  }

  return {
    start() {
      stopped = false;
      timer = setInterval(run, pollMs);
      timer.unref();
      run();
    },
    /** Something was just enqueued: send it now rather than at the next poll. */
    notify: run,
    /** Wait for the current batch (tests, shutdown). */
    async drain() {
      run();
      while (running) await running;
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      if (running) await running;
    },
  };
}

export type OutboxWorker = ReturnType<typeof createOutboxWorker>;
