import type { InboundLog, LoggedEvent } from "../inbound-log.js";
import type { BaileysLogger } from "./baileys-logger.js";

/**
 * The connection's ordered work, backed by the durable inbound log. Baileys sends the delivery
 * receipt before it emits a message, so WhatsApp never redelivers one we lose: each event is
 * written to the log the moment it arrives (writes chained, so the log keeps arrival order), then
 * processed in order; a row is marked done only after the pipeline stored it. Rows left pending by
 * a crash are replayed first when the session starts again.
 */
export interface DurableQueue {
  /** Log an event (skipped when its key is already logged), then run it in order. */
  receive(kind: string, key: string | null, payload: unknown, run: () => Promise<void>): void;
  /** Work that is not logged (acks, identities), in the same order as the rest. */
  enqueue(what: string, work: () => Promise<void>): void;
  /**
   * Process what a previous run logged and never finished, before anything received after;
   * `retriesOnly`: only events that already failed once (a periodic second chance while connected,
   * which never overtakes an event still waiting its first turn in the queue).
   */
  replay(dispatch: (event: LoggedEvent) => Promise<void>, options?: { retriesOnly?: boolean }): void;
  /** Resolves once everything queued so far has run (tests, shutdown). */
  idle(): Promise<void>;
}

export function createDurableQueue(inbox: InboundLog, logger: BaileysLogger): DurableQueue {
  let writes: Promise<unknown> = Promise.resolve();
  let work: Promise<void> = Promise.resolve();

  const enqueue = (what: string, task: () => Promise<void>) => {
    work = work.then(task).catch((error) => logger.error({ err: error }, `could not process ${what}`));
  };

  const settle = async (id: number | undefined, run: () => Promise<void>) => {
    try {
      await run();
    } catch (error) {
      if (id !== undefined) await inbox.failed(id, error).catch(() => {});
      throw error;
    }
    if (id !== undefined) await inbox.done(id);
  };

  return {
    receive(kind, key, payload, run) {
      const recorded = writes.then(() => inbox.record(kind, key, payload));
      writes = recorded.catch(() => undefined);
      enqueue(kind, async () => {
        let id: number | undefined;
        try {
          id = await recorded;
          // Already logged: a redelivery of something stored, or a row the replay owns.
          if (id === undefined) return;
        } catch (error) {
          // The log is unavailable: the event is still worth processing now rather than dropping.
          logger.error({ err: error }, "could not write to the inbound log");
        }
        await settle(id, run);
      });
    },
    enqueue,
    replay(dispatch, options = {}) {
      enqueue("logged events", async () => {
        const pending = await inbox.pending(undefined, options);
        for (const event of pending) {
          await settle(event.id, () => dispatch(event)).catch((error) =>
            logger.error({ err: error, eventId: event.id }, "could not replay a logged event"),
          );
        }
      });
    },
    idle: async () => {
      let seen: Promise<void> | undefined;
      while (seen !== work) {
        seen = work;
        await seen;
      }
    },
  };
}
