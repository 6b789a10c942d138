import pg from "pg";

/**
 * Issue 24: a transaction's BEGIN rides with its first statement, in one write and one round trip.
 *
 * BEGIN used to be a round trip of its own in every transaction: one network round trip of latency
 * per write when PostgreSQL is on another host (on loopback its CPU is too small to measure,
 * docs/benchmarks.md). node-postgres sends a statement only after the one before has answered, so
 * the pipeline is built at the protocol level: BEGIN, prepared once per connection, is bound and
 * executed, then the first statement's own parse/bind/describe/execute follow, then one Sync.
 * PostgreSQL runs them in order; an error in either skips the rest up to the Sync, and the
 * transaction's caller rolls back as before.
 *
 * Only a statement sent with the extended protocol (parameters, or a name) can ride along: a plain
 * text may hold several statements, which the extended protocol refuses. Such a first statement,
 * and the first transaction on each connection (which prepares BEGIN), send BEGIN on its own.
 */
export const BEGIN = "zapdesk_begin";

/** Clients whose transaction waits for its first statement to send BEGIN (`beginWithFirstQuery`). */
const waiting = new WeakSet<object>();

/**
 * Whether `client`'s transaction has not sent BEGIN yet and BEGIN is prepared on its connection: a
 * pipeline of statements (db/pipeline.ts) may then open it, BEGIN its first step, marked with
 * `opensTransaction`.
 */
export function beginPending(client: object): boolean {
  const connection = (client as { connection?: Connection }).connection;
  return waiting.has(client) && connection?.parsedStatements[BEGIN] !== undefined;
}

/** The connection's protocol writer, as node-postgres's `Query` drives it. */
interface Connection {
  parsedStatements: Record<string, string>;
  bind(config: { statement: string; portal: string; values: unknown[] }): void;
  execute(config: { portal: string }): void;
}

/** A statement preceded by BEGIN's bind and execute; BEGIN's completion is not a result of its own. */
class AfterBegin extends pg.Query {
  declare callback: (error: Error | null, result: unknown) => void;
  declare requiresPreparation: () => boolean;
  /** Read by the statement counters (test/statements.ts): BEGIN went, though not as a call of its own. */
  readonly pipelinedBegin = true;
  private beginDone = false;

  prepare(connection: Connection) {
    connection.bind({ statement: BEGIN, portal: "", values: [] });
    connection.execute({ portal: "" });
    (pg.Query.prototype as unknown as { prepare(c: Connection): void }).prepare.call(this, connection);
  }

  handleCommandComplete(msg: unknown, connection: unknown) {
    if (!this.beginDone) {
      this.beginDone = true;
      return;
    }
    (pg.Query.prototype as unknown as { handleCommandComplete(m: unknown, c: unknown): void }).handleCommandComplete.call(
      this,
      msg,
      connection,
    );
  }
}

type QueryFn = (...args: unknown[]) => unknown;

/**
 * Makes `client`'s next query open the transaction: with that query when it can ride along, else
 * just before it. Returns whether BEGIN has gone yet (no query, no transaction: nothing to commit or
 * roll back) and a function that puts the client's own `query` back.
 */
export function beginWithFirstQuery(client: pg.ClientBase): { begun(): boolean; restore(): void } {
  const target = client as unknown as { query: QueryFn; connection?: Connection };
  const hadOwn = Object.hasOwn(target, "query");
  const original = target.query;
  let begun = false;
  waiting.add(client);
  const restore = () => {
    waiting.delete(client);
    if (hadOwn) target.query = original;
    else delete (target as { query?: QueryFn }).query;
  };
  target.query = (...args: unknown[]) => {
    restore();
    begun = true;
    const [config, values, callback] = args;
    // A pipeline that sends BEGIN itself, as its first step (db/pipeline.ts).
    if ((config as { opensTransaction?: boolean } | null)?.opensTransaction === true)
      return Reflect.apply(original, client, args);
    const connection = target.connection;
    const plain = typeof config === "object" && config !== null && typeof (config as { submit?: unknown }).submit !== "function";
    if (plain && connection?.parsedStatements[BEGIN] !== undefined && callback === undefined && typeof values !== "function") {
      const query = new AfterBegin(config as pg.QueryConfig, values as unknown[] | undefined);
      if (query.requiresPreparation() && !(config as { rows?: number }).rows) {
        return new Promise((resolve, reject) => {
          query.callback = (error, result) => (error ? reject(error) : resolve(result));
          Reflect.apply(original, client, [query]);
        });
      }
    }
    // BEGIN on its own, named so that it is prepared on this connection for the next transaction.
    const sent = Reflect.apply(original, client, [{ name: BEGIN, text: "begin" }]) as Promise<unknown>;
    return sent.then(() => Reflect.apply(original, client, args));
  };
  return { begun: () => begun, restore };
}
