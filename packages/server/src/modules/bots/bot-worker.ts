import type { HandoverInput } from "@zapdesk/core";
import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import { botSessions } from "../../db/schema.js";
import { type Clock, systemClock } from "../../lib/clock.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { MediaLinks } from "../../media/media-links.js";
import type { Publisher } from "../../realtime/publisher.js";
import { setContactField } from "../automation/actions.js";
import type { ServiceParts } from "../automation/scoped-services.js";
import { SYSTEM_ACTOR } from "../closing-reasons/api-close.js";
import { findMessage } from "../messages/messages.repo.js";
import type { OutboundQueue } from "../messages/outbound-queue.js";
import { findTicket } from "../tickets/tickets.repo.js";
import { asksForPerson, type BotTurn, typebotTurn, webhookTurn } from "./bot-run.js";
import { createBotTransactions } from "./bot-tx.js";
import * as repo from "./bots.repo.js";
import { handOver } from "./handover.js";
import { BotFailure, TYPEBOT_TIMEOUT_MS } from "./typebot.js";

const BATCH = 10;
/** A claimed job is someone else's for this long (longer than a turn can take). */
const LEASE_MS = TYPEBOT_TIMEOUT_MS * 6;

export interface BotWorkerDeps {
  db: Db;
  events: Publisher;
  outbound: OutboundQueue;
  parts: ServiceParts;
  secrets: SecretBox;
  logger: FastifyBaseLogger;
  clock?: Clock;
  pollMs?: number;
  /** The deadline of one call to a bot. */
  timeoutMs?: number;
  /** Links to the customer's files, for the bots. */
  mediaLinks: MediaLinks;
}

/**
 * Issue 23 §4: talks with the bots. Each customer message the inbound roads queued (bot_jobs) is
 * leased (SKIP LOCKED, a ticket's messages in order), sent to its queue's bot, and the answer (the
 * bot's messages through the outbox, the session, the contact fields, a handover) stored in the
 * transaction that deletes the job: a crash before it leaves the job to run again, after it
 * nothing runs twice. A bot that fails (HTTP error, timeout) hands the ticket to its queue at once;
 * the customer's message is on the ticket already. Sessions idle past their bot's timeout are handed
 * to the queue by the same loop, each once (a conditional delete).
 */
export function createBotWorker(deps: BotWorkerDeps) {
  const { db, logger } = deps;
  const clock = deps.clock ?? systemClock;
  const pollMs = deps.pollMs ?? 1000;
  const inTransaction = createBotTransactions(deps);
  const runDeps = {
    db,
    secrets: deps.secrets,
    storage: deps.parts.storage,
    timeoutMs: deps.timeoutMs,
    mediaLinks: deps.mediaLinks,
  };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;

  /** Store a turn (or just the handover) as the job's outcome; nothing when the lease was lost. */
  async function finish(job: repo.BotJobRow, turn: BotTurn) {
    const outgoing = deps.outbound.begin();
    await inTransaction(async (tx, services) => {
      if (!(await repo.finishJob(tx, job))) return;
      // The ticket first, then its session: the order the inbound roads and the ticket service take
      // (a person moving a held ticket ends its session), so neither waits on the other in a circle.
      const ticket = await findTicket(tx, job.ticketId, { lock: true });
      const session = await repo.findSession(tx, job.ticketId, true);
      if (!session || !ticket) return;
      for (const part of turn.outgoing) {
        await outgoing.enqueue(tx, { ticket, body: part.body, media: part.media, automation: "bot" });
      }
      for (const field of turn.fields) await setContactField(tx, services, SYSTEM_ACTOR, ticket.contactId, field);
      if (turn.handover) {
        const to = await handOver(tx, services, job.ticketId, turn.handover);
        logger.info({ ticketId: job.ticketId, to, reason: turn.reason }, "bot handed over");
      } else {
        await tx
          .update(botSessions)
          .set({ ...(turn.session ?? {}), lastActivityAt: clock.now() })
          .where(eq(botSessions.ticketId, job.ticketId));
      }
    });
    // The bot's messages go out (and are announced) after commit, as every sender's.
    await outgoing.afterCommit();
  }

  const handoverTurn = (target: HandoverInput, reason: string): BotTurn => ({
    outgoing: [],
    fields: [],
    handover: target,
    reason,
  });

  async function runJob(job: repo.BotJobRow) {
    const session = await repo.findSession(db, job.ticketId);
    const ticket = await findTicket(db, job.ticketId);
    const message = await findMessage(db, job.messageId);
    if (!session || !ticket || !message || ticket.status !== "pending" || ticket.userId !== null) {
      // Taken over (or gone) meanwhile: the message stays for whoever has the ticket.
      await db.transaction(async (tx) => {
        if ((await repo.finishJob(tx, job)) && session) await repo.endSession(tx, job.ticketId);
      });
      return;
    }
    const bot = await repo.findBot(db, session.queueId);
    if (!bot) return finish(job, handoverTurn({ to: "queue" }, "the queue has no bot any more"));
    if (asksForPerson(bot, message.body)) return finish(job, handoverTurn({ to: "queue" }, "the customer asked for a person"));
    let turn: BotTurn;
    try {
      if (bot.kind === "typebot") turn = await typebotTurn(runDeps, bot, session, ticket, message);
      else {
        await webhookTurn(runDeps, bot, ticket, message, job.id);
        turn = { outgoing: [], fields: [] };
      }
    } catch (error) {
      if (!(error instanceof BotFailure)) throw error;
      logger.warn({ ticketId: job.ticketId, queueId: session.queueId, kind: bot.kind, error: error.message }, "bot failed");
      turn = handoverTurn({ to: "queue" }, `bot failure: ${error.message}`);
    }
    await finish(job, turn);
  }

  /** Sessions idle past their bot's timeout go to their queue, each exactly once. */
  async function sweep(): Promise<number> {
    const idle = await repo.idleSessions(db, clock.now(), BATCH);
    let handed = 0;
    for (const session of idle) {
      const done = await inTransaction(async (tx, services) => {
        await findTicket(tx, session.ticketId, { lock: true }); // the ticket before its session, as in finish()
        const ended = await repo.endSession(tx, session.ticketId, session.lastActivityAt);
        if (!ended) return false;
        await handOver(tx, services, session.ticketId, { to: "queue" }, { ended: true });
        return true;
      });
      if (done) {
        handed += 1;
        logger.info({ ticketId: session.ticketId, reason: "timeout" }, "bot handed over");
      }
    }
    return handed;
  }

  async function tick() {
    do {
      again = false;
      await sweep();
      const claimed = await repo.claimJobs(db, clock.now(), BATCH, LEASE_MS);
      if (claimed.length === 0) break;
      await Promise.all(
        claimed.map((job) => runJob(job).catch((error) => logger.error({ err: error, jobId: job.id }, "bot job failed"))),
      );
      again = true;
    } while (again && !stopped);
  }

  function run() {
    if (running) {
      again = true;
      return;
    }
    running = tick()
      .catch((error) => logger.error({ err: error }, "bot worker tick failed"))
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
    notify() {
      if (!stopped) run();
    },
    sweep,
    /** Run until nothing is due (tests). */
    async drain() {
      while (running) await running;
      const wasStopped = stopped;
      stopped = false;
      run();
      while (running) await running;
      stopped = wasStopped;
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      while (running) await running;
    },
  };
}

export type BotWorker = ReturnType<typeof createBotWorker>;
