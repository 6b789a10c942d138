import type { Db } from "../../db/client.js";
import type * as repo from "./messages.repo.js";
import { enqueueOutboundParts, type OutboundInput } from "./outbound.js";

export interface OutboundQueueDeps {
  /** Wake the outbox worker (it also polls: a lost wake-up only delays a send). */
  notifyOutbox(): void;
  /** Publish new outbound messages, and the ticket they moved, to whoever sees the ticket. */
  announce(ticketId: number, messageIds: number[]): Promise<void>;
}

/**
 * One unit of work's outgoing messages: `enqueue(tx, …)` inside the caller's transaction, then
 * `afterCommit()` once it committed. A transaction that rolled back never reaches afterCommit, so
 * nothing is woken or announced for it.
 */
export interface Outgoing {
  /** Store a message and its outbox rows in `tx` (every part, first first: see enqueueOutboundParts). */
  enqueue(tx: Db, input: OutboundInput): Promise<repo.MessageRow[]>;
  /** After commit: wake the outbox once and announce every queued message. */
  afterCommit(): Promise<void>;
}

/** The one "queue, then after commit wake the outbox and announce" for every message the server sends. */
export interface OutboundQueue {
  begin(): Outgoing;
}

export function createOutboundQueue(deps: OutboundQueueDeps): OutboundQueue {
  return {
    begin() {
      const queued = new Map<number, number[]>();
      return {
        async enqueue(tx, input) {
          const rows = await enqueueOutboundParts(tx, input);
          const ids = queued.get(input.ticket.id) ?? [];
          ids.push(...rows.map((row) => row.id));
          queued.set(input.ticket.id, ids);
          return rows;
        },
        async afterCommit() {
          if (queued.size === 0) return;
          deps.notifyOutbox();
          const entries = [...queued];
          queued.clear();
          for (const [ticketId, ids] of entries) await deps.announce(ticketId, ids);
        },
      };
    },
  };
}
