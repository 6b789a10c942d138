import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import { createSecretBox } from "../../lib/secret-box.js";
import type { MediaLinks } from "../../media/media-links.js";
import type { Publisher } from "../../realtime/publisher.js";
import type { ServiceParts } from "../automation/scoped-services.js";
import type { OutboundQueue } from "../messages/outbound-queue.js";
import { createBotTransactions } from "./bot-tx.js";
import { createBotWorker } from "./bot-worker.js";
import { createBotService } from "./bots.service.js";

export { botRoutes } from "./bots.routes.js";

/** Issue 23 §4: the queues' bots (service and worker), wired from the composition root's pieces (app.ts). */
export function createBots(deps: {
  db: Db;
  clock: Clock;
  events: Publisher;
  /** The automation's queue for messages to the customer (modules/automation/index.ts). */
  outbound: OutboundQueue;
  parts: ServiceParts;
  logger: FastifyBaseLogger;
  encryptionKey: string;
  pollMs?: number;
  timeoutMs?: number;
  mediaLinks: MediaLinks;
}) {
  const { db, clock, events, outbound, parts } = deps;
  const secrets = createSecretBox(deps.encryptionKey);
  const inTransaction = createBotTransactions({ db, events, outbound, parts });
  const worker = createBotWorker({
    db,
    events,
    outbound,
    parts,
    secrets,
    logger: deps.logger,
    clock,
    pollMs: deps.pollMs,
    timeoutMs: deps.timeoutMs,
    mediaLinks: deps.mediaLinks,
  });
  const service = createBotService({ db, clock, secrets, inTransaction, outbound, notify: () => worker.notify() });
  return { service, worker };
}

export type Bots = ReturnType<typeof createBots>;
