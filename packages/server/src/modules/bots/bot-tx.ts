import type { Db } from "../../db/client.js";
import type { Publisher } from "../../realtime/publisher.js";
import { deferEffects } from "../automation/deferred.js";
import { type ScopedServices, type ServiceParts, scopedServices } from "../automation/scoped-services.js";
import type { OutboundQueue } from "../messages/outbound-queue.js";

/**
 * One transaction with the very services an agent's click goes through (automation's scoped
 * services); their realtime events and messages leave once it committed.
 */
export function createBotTransactions(deps: { db: Db; events: Publisher; outbound: OutboundQueue; parts: ServiceParts }) {
  return async function inTransaction<T>(work: (tx: Db, services: ScopedServices) => Promise<T>): Promise<T> {
    const effects = deferEffects(deps.events, deps.outbound);
    const result = await deps.db.transaction(async (tx) => work(tx, scopedServices(tx, deps.parts, effects)));
    await effects.flush();
    return result;
  };
}

export type BotTransactions = ReturnType<typeof createBotTransactions>;
