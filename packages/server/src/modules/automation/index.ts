import type { FastifyBaseLogger } from "fastify";
import type { Conversations } from "../../conversations.js";
import type { Db } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import type { MediaLinks } from "../../media/media-links.js";
import type { Publisher } from "../../realtime/publisher.js";
import { createRuleWorker } from "../automation-rules/rule-worker.js";
import { createRuleService } from "../automation-rules/rules.service.js";
import { createBots } from "../bots/index.js";
import { createMacroService } from "../macros/macros.service.js";
import { createOutboundQueue } from "../messages/outbound-queue.js";
import { createActionRunner } from "./actions.js";
import type { ServiceParts } from "./scoped-services.js";

/**
 * Issue 23: the action runner (shared by macros and automation rules), the macros, the rules and the queues' bots,
 * wired from the composition root's pieces (app.ts).
 */
export function createAutomation(deps: {
  db: Db;
  clock: Clock;
  events: Publisher;
  conversations: Conversations;
  notifyWebhooks: () => void;
  /** Issue 23 §1: the rules' worker (its log, its poll interval; tests pass a short one). */
  logger: FastifyBaseLogger;
  heavy?: Db;
  /** The rules' and the bots' workers' poll interval (tests pass a short one). */
  rulesPollMs?: number;
  /** Issue 23 §4: the bots' sealed tokens, and how long a bot may take to answer. */
  encryptionKey: string;
  botTimeoutMs?: number;
  /** The links to the customer's files the bots receive. */
  mediaLinks: MediaLinks;
}) {
  const { db, clock, events, conversations } = deps;
  const notifyOutbox = () => conversations.outbox.notify();
  // The same "queue, then after commit wake the outbox and announce" as every sender's.
  const outbound = createOutboundQueue({
    notifyOutbox,
    announce: (ticketId, messageIds) => conversations.messages.announceCreated(ticketId, messageIds),
  });
  const parts: ServiceParts = {
    clock,
    storage: conversations.storage,
    notifyOutbox,
    session: (whatsappId) => conversations.sessions.get(whatsappId),
    templates: conversations.templates,
  };
  const runner = createActionRunner({
    db,
    events,
    outbound,
    notifyWebhooks: deps.notifyWebhooks,
    parts,
  });
  const macros = createMacroService({ db, events, runner, tickets: conversations.tickets });
  const rules = createRuleService({ db, heavy: deps.heavy ?? db, events, clock });
  const ruleWorker = createRuleWorker({
    db,
    runner,
    logger: deps.logger,
    pollMs: deps.rulesPollMs,
    quietSkips: conversations.ruleSkips,
  });
  const bots = createBots({
    db,
    clock,
    events,
    outbound,
    parts,
    logger: deps.logger,
    encryptionKey: deps.encryptionKey,
    pollMs: deps.rulesPollMs,
    timeoutMs: deps.botTimeoutMs,
    mediaLinks: deps.mediaLinks,
  });
  return { runner, macros, rules, ruleWorker, bots };
}

export type Automation = ReturnType<typeof createAutomation>;
