import type { Conversations } from "../../conversations.js";
import type { Db } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import type { Publisher } from "../../realtime/publisher.js";
import { createMacroService } from "../macros/macros.service.js";
import { createOutboundQueue } from "../messages/outbound-queue.js";
import { createActionRunner } from "./actions.js";

/**
 * Issue 23: the action runner (shared by macros now and automation rules later) and the macros,
 * wired from the composition root's pieces (app.ts).
 */
export function createAutomation(deps: {
  db: Db;
  clock: Clock;
  events: Publisher;
  conversations: Conversations;
  notifyWebhooks: () => void;
}) {
  const { db, clock, events, conversations } = deps;
  const notifyOutbox = () => conversations.outbox.notify();
  // The same "queue, then after commit wake the outbox and announce" as every sender's.
  const outbound = createOutboundQueue({
    notifyOutbox,
    announce: (ticketId, messageIds) => conversations.messages.announceCreated(ticketId, messageIds),
  });
  const runner = createActionRunner({
    db,
    events,
    outbound,
    notifyWebhooks: deps.notifyWebhooks,
    parts: {
      clock,
      storage: conversations.storage,
      notifyOutbox,
      session: (whatsappId) => conversations.sessions.get(whatsappId),
      templates: conversations.templates,
    },
  });
  const macros = createMacroService({ db, events, runner, tickets: conversations.tickets });
  return { runner, macros };
}

export type Automation = ReturnType<typeof createAutomation>;
