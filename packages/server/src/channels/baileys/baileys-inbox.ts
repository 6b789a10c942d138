import type { InboundLog, LoggedEvent } from "../inbound-log.js";
import type { InboundSpool, SpooledEvent } from "../inbound-spool.js";
import type { BaileysLogger } from "./baileys-logger.js";

/**
 * The connection's ordered work, backed by the durable inbound log. Baileys sends the delivery
 * receipt before it emits a message, so WhatsApp never redelivers one we lose: each event is
 * written to the log the moment it arrives (writes chained, so the log keeps arrival order), then
 * processed in order; a row is marked done only after the pipeline stored it. Rows left pending by
 * a crash are replayed first when the session starts again. While the log cannot be written (the
 * database is unreachable), events go to the connection's spool on disk instead and are moved into
 * the log, then processed, once it answers again.
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
  /** Events waiting in the spool on disk for the log to be writable again. */
  spooled(): number;
  /** Stop retrying the spool's move (the session stopped; the next start moves it). */
  close(): void;
}

/** How often a spool is offered to the log again while the database stays away. */
const SPOOL_RETRY_MS = 2_000;
/** How many logged events a replay reads at a time. */
const REPLAY_PAGE = 500;

const rejected = (reason: unknown): PromiseRejectedResult => ({ status: "rejected", reason });

/** The log's id of an event; undefined when the log could not be written (processed anyway), null when already logged. */
type LogId = number | undefined | null;

interface Gathering {
  kind: string;
  entries: { item: unknown; id: Promise<LogId> }[];
  add(entries: { item: unknown; id: Promise<LogId> }[]): void;
}

export function createDurableQueue(inbox: InboundLog, logger: BaileysLogger, spool?: InboundSpool): DurableQueue {
  let writes: Promise<unknown> = Promise.resolve();
  let work: Promise<void> = Promise.resolve();
  // The last queued work when it is a group of logged events not started yet: later ones join it.
  let gathering: Gathering | undefined;
  // How the session processes what the log holds (set by its first replay): run again after a spool moved in.
  let processLogged: (() => void) | undefined;
  let spoolTimer: NodeJS.Timeout | undefined;
  let closed = false;
  /**
   * Log rows whose processing is already queued by the path that wrote them (a live event). A
   * replay reads the log after those writes and would otherwise find them still pending and run
   * them a second time, before or beside their own task.
   */
  const owned = new Set<number>();
  const own = <T extends number | null | undefined>(ids: T[]): T[] => {
    for (const id of ids) if (typeof id === "number") owned.add(id);
    return ids;
  };

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

  /**
   * Write to the log, or to the spool while the log cannot be written; `spooled` is what the write
   * answers for events the spool now owns (nothing to process now: the spool's move into the log,
   * and the replay after it, process them). Once events wait in the spool, later ones join them
   * there, so that they reach the log in the order they arrived.
   */
  async function recordOrSpool<R>(write: () => Promise<R>, events: SpooledEvent[], spooled: R): Promise<R> {
    if (spool && spool.size() > 0) {
      spool.append(events);
      return spooled;
    }
    try {
      return await write();
    } catch (error) {
      if (!spool) throw error;
      // Full: thrown on, the events are then processed at once as they were before there was a spool.
      spool.append(events);
      logger.warn({ err: error, spooled: spool.size() }, "inbound log unavailable: events kept in the spool on disk");
      scheduleSpool();
      return spooled;
    }
  }

  /** Move the spool into the log (in the write order), then process it with the rest of the log. */
  async function moveSpool(): Promise<void> {
    if (!spool || spool.size() === 0) return;
    const moved = await logged(() => spool.drain(inbox));
    logger.info({ moved }, "the inbound log answers again: spooled events moved into it");
  }

  function scheduleSpool() {
    if (spoolTimer || closed) return;
    spoolTimer = setTimeout(() => {
      spoolTimer = undefined;
      moveSpool().then(
        () => processLogged?.(),
        (error) => {
          logger.debug({ err: error }, "inbound log still unavailable; the spool waits");
          scheduleSpool();
        },
      );
    }, SPOOL_RETRY_MS);
    spoolTimer.unref?.();
  }

  const settle = async (id: number | undefined, run: () => Promise<void>) => {
    try {
      await run();
    } catch (error) {
      if (id !== undefined) await inbox.failed(id, error).catch(() => {});
      throw error;
    } finally {
      if (id !== undefined) owned.delete(id);
    }
    if (id !== undefined) await inbox.done(id);
  };

  /** After a group ran: the stored ones' rows done in one statement, each failure counted on its row. */
  const settleAll = async (ids: LogId[], outcomes: PromiseSettledResult<void>[], what: string) => {
    for (const id of ids) if (id != null) owned.delete(id);
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

  /**
   * Process what the log holds unfinished, oldest first and page by page (an outage can leave
   * thousands), before anything received after.
   */
  function replay(
    dispatch: (event: LoggedEvent) => Promise<void>,
    options: { retriesOnly?: boolean } = {},
    together?: { kind: string; run(events: LoggedEvent[]): Promise<PromiseSettledResult<void>[]> },
  ): void {
    if (!options.retriesOnly) {
      processLogged = () => replay(dispatch, {}, together);
      closed = false;
    }
    enqueue("logged events", async () => {
      // What a previous run (or this one) spooled during an outage joins the log before it is read.
      await moveSpool().catch((error) => {
        logger.warn({ err: error }, "the spool could not be moved into the inbound log yet");
        scheduleSpool();
      });
      let afterId: number | undefined;
      for (;;) {
        // Read behind the log's writes: every event written before has its id, and is owned when
        // a live task of its own will run it.
        const page = await logged(() => inbox.pending(REPLAY_PAGE, { ...options, afterId }));
        if (page.length === 0) return;
        afterId = page[page.length - 1].id;
        await runLogged(
          page.filter((event) => !owned.has(event.id)),
          dispatch,
          together,
        );
        if (page.length < REPLAY_PAGE) return;
      }
    });
  }

  async function runLogged(
    pending: LoggedEvent[],
    dispatch: (event: LoggedEvent) => Promise<void>,
    together?: { kind: string; run(events: LoggedEvent[]): Promise<PromiseSettledResult<void>[]> },
  ) {
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
  }

  return {
    receive(kind, key, payload, run) {
      const recorded = logged(async () => {
        const [id] = own([
          await recordOrSpool(() => inbox.record(kind, key, payload), [{ kind, key, payload }], undefined as number | undefined),
        ]);
        return id;
      });
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
      const recorded = logged(async () =>
        own(
          await recordOrSpool(
            () =>
              inbox.recordAll(
                kind,
                events.map(({ key, payload }) => ({ key, payload })),
              ),
            events.map(({ key, payload }) => ({ kind, key, payload })),
            events.map((): number | undefined => undefined),
          ),
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
    replay,
    spooled: () => spool?.size() ?? 0,
    close() {
      closed = true;
      clearTimeout(spoolTimer);
      spoolTimer = undefined;
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
