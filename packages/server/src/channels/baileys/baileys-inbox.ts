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
  /**
   * Log events received together (one upsert's messages) in one statement, then run them in one
   * call: `run` gets the newly logged ones in order and settles one outcome each; their rows are
   * marked done in one statement once `run` returns (after their batch committed). Events received
   * while the previous work runs join the same call as long as nothing else was queued between
   * (events of one kind always come with the same `run`).
   */
  receiveAll<T>(
    kind: string,
    events: { key: string; payload: unknown; item: T }[],
    run: (items: T[]) => Promise<PromiseSettledResult<void>[]>,
  ): void;
  /** Work that is not logged (acks, identities), in the same order as the rest. */
  enqueue(what: string, work: () => Promise<void>): void;
  /**
   * Process what a previous run logged and never finished, before anything received after;
   * `retriesOnly`: only events that already failed once (a periodic second chance while connected,
   * which never overtakes an event still waiting its first turn in the queue).
   */
  replay(
    dispatch: (event: LoggedEvent) => Promise<void>,
    options?: { retriesOnly?: boolean },
    /** Consecutive events of this kind are run in one call (one outcome each), as `receiveAll` runs them. */
    together?: { kind: string; run(events: LoggedEvent[]): Promise<PromiseSettledResult<void>[]> },
  ): void;
  /** Resolves once everything queued so far has run (tests, shutdown). */
  idle(): Promise<void>;
}

const rejected = (reason: unknown): PromiseRejectedResult => ({ status: "rejected", reason });

/** The log's id of an event; undefined when the log could not be written (processed anyway), null when already logged. */
type LogId = number | undefined | null;

interface Gathering {
  kind: string;
  entries: { item: unknown; id: Promise<LogId> }[];
  add(entries: { item: unknown; id: Promise<LogId> }[]): void;
}

export function createDurableQueue(inbox: InboundLog, logger: BaileysLogger): DurableQueue {
  let writes: Promise<unknown> = Promise.resolve();
  let work: Promise<void> = Promise.resolve();
  // The last queued work when it is a group of logged events not started yet: later ones join it.
  let gathering: Gathering | undefined;

  const enqueue = (what: string, task: () => Promise<void>) => {
    gathering = undefined;
    work = work.then(task).catch((error) => logger.error({ err: error }, `could not process ${what}`));
  };

  /** Write to the log in arrival order (writes chained), whatever the processing order. */
  const logged = <R>(write: () => Promise<R>): Promise<R> => {
    const recorded = writes.then(write);
    writes = recorded.catch(() => undefined);
    return recorded;
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

  /** After a group ran: the stored ones' rows done in one statement, each failure counted on its row. */
  const settleAll = async (ids: LogId[], outcomes: PromiseSettledResult<void>[], what: string) => {
    const done: number[] = [];
    for (const [i, outcome] of outcomes.entries()) {
      const id = ids[i];
      if (outcome.status === "fulfilled") {
        if (id != null) done.push(id);
        continue;
      }
      logger.error({ err: outcome.reason, eventId: id ?? undefined }, what);
      if (id != null) await inbox.failed(id, outcome.reason).catch(() => {});
    }
    await inbox.doneAll(done);
  };

  return {
    receive(kind, key, payload, run) {
      const recorded = logged(() => inbox.record(kind, key, payload));
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
    receiveAll<T>(
      kind: string,
      events: { key: string; payload: unknown; item: T }[],
      run: (items: T[]) => Promise<PromiseSettledResult<void>[]>,
    ) {
      if (events.length === 0) return;
      const recorded = logged(() =>
        inbox.recordAll(
          kind,
          events.map(({ key, payload }) => ({ key, payload })),
        ),
      ).then(
        (ids): LogId[] => ids.map((id) => (id === undefined ? null : id)),
        (error): LogId[] => {
          // The log is unavailable: the events are still worth processing now rather than dropping.
          logger.error({ err: error }, "could not write to the inbound log");
          return events.map(() => undefined);
        },
      );
      const entries = events.map(({ item }, i) => ({ item, id: recorded.then((ids) => ids[i]) }));
      if (gathering?.kind === kind) {
        gathering.add(entries);
        return;
      }
      const group: Gathering = { kind, entries: [], add: (more) => group.entries.push(...more) };
      group.add(entries);
      enqueue(kind, async () => {
        if (gathering === group) gathering = undefined;
        const ids = await Promise.all(group.entries.map((e) => e.id));
        // Already logged: a redelivery of something stored, or a row the replay owns.
        const todo = group.entries.map((e, i) => ({ item: e.item as T, id: ids[i] })).filter((e) => e.id !== null);
        if (todo.length === 0) return;
        const outcomes = await run(todo.map((e) => e.item)).catch((error) => todo.map(() => rejected(error)));
        await settleAll(
          todo.map((e) => e.id),
          outcomes,
          `could not process ${kind}`,
        );
      });
      gathering = group;
    },
    enqueue,
    replay(dispatch, options = {}, together) {
      enqueue("logged events", async () => {
        const pending = await inbox.pending(undefined, options);
        let next = 0;
        while (next < pending.length) {
          const event = pending[next];
          if (event.kind === together?.kind) {
            // Consecutive events of that kind run together, as they would have when received.
            let end = next + 1;
            while (end < pending.length && pending[end].kind === together.kind) end += 1;
            const group = pending.slice(next, end);
            next = end;
            const outcomes = await together.run(group).catch((error) => group.map(() => rejected(error)));
            await settleAll(
              group.map((e) => e.id),
              outcomes,
              "could not replay a logged event",
            ).catch((error) => logger.error({ err: error }, "could not mark replayed events done"));
            continue;
          }
          next += 1;
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
