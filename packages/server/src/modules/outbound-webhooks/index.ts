import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import { createSecretBox } from "../../lib/secret-box.js";
import { createDeliveryWorker } from "./delivery-worker.js";
import { createWebhookService } from "./webhooks.service.js";

export { outboundWebhookRoutes } from "./webhooks.routes.js";

/** The admin service and the delivery worker of outbound webhooks (wired in app.ts). */
export function createOutboundWebhooks(deps: {
  db: Db;
  clock: Clock;
  logger: FastifyBaseLogger;
  encryptionKey: string;
  pollMs?: number;
  random?: () => number;
}) {
  const secrets = createSecretBox(deps.encryptionKey);
  const worker = createDeliveryWorker({ ...deps, secrets });
  const service = createWebhookService({ db: deps.db, secrets, clock: deps.clock, onResend: () => worker.notify() });
  return { service, worker };
}

export type OutboundWebhooks = ReturnType<typeof createOutboundWebhooks>;
