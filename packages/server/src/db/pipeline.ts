import { createRequire } from "node:module";
import pg from "pg";
import { BEGIN, beginPending } from "./begin-pipeline.js";

// node-postgres's own mapping of a value to the wire (dates, arrays, JSON), as its queries bind them.
const { prepareValue } = createRequire(import.meta.url)("pg/lib/utils.js") as { prepareValue: (value: unknown) => unknown };

/**
 * Issue 24 item 1: a transaction's statements that do not wait on each other's answers, sent in one
 * write and answered in one round trip: each statement's bind, describe and execute, then one Sync.
 * PostgreSQL runs them in order, each a statement of its own (its triggers fire at its end, as when
 * sent one by one); an error in one skips the rest up to the Sync, and the transaction's caller
 * rolls back as before. node-postgres sends a statement only after the one before has answered, so
 * the pipeline is built at the protocol level, as `begin-pipeline.ts` does for BEGIN.
 *
 * On this machine a round trip to PostgreSQL costs Node about 0.16 ms in the socket write alone
 * (the loopback's work is done in the writer's system call), and the database as much again.
 *
 * Only statements already parsed on the connection ride together (named statements, prepared by an
 * earlier run on it): a Parse would need its own completion handled per statement. And only inside
 * a transaction: outside one, statements up to a Sync make one implicit transaction (all or none),
 * which one by one they do not, and the pool may hand each statement another connection. Otherwise
 * they run one after another, with the same results. A transaction whose BEGIN waits for its first
 * statement (begin-pipeline.ts) is opened by the pipeline: BEGIN is its first step.
 */

/** The connection's protocol writer, as node-postgres's `Query` drives it. */
interface Connection {
  parsedStatements: Record<string, string>;
  bind(config: { statement: string; portal: string; values: unknown[] }): void;
  describe(config: { type: "P"; name: string }): void;
  execute(config: { portal: string }): void;
  sync(): void;
}

export interface PipelineStep {
  name: string;
  text: string;
  values: unknown[];
}

/** Several named statements as one query: one result a statement, in order. */
class Pipelined extends pg.Query {
  declare callback: (error: Error | null, result: unknown) => void;
  /** Read by the statement counters (test/statements.ts): each statement counts, though sent as one call. */
  readonly pipelined: string[];

  /** BEGIN is its first step: the transaction's lazy BEGIN lets it through (begin-pipeline.ts). */
  readonly opensTransaction: boolean;

  constructor(
    private readonly steps: PipelineStep[],
    types: pg.CustomTypesConfig,
    rowMode?: "array",
  ) {
    super({ text: steps.map((step) => step.name).join("; "), types, ...(rowMode && { rowMode }) });
    this.pipelined = steps.map((step) => (step.name === BEGIN ? "begin" : step.name));
    this.opensTransaction = steps[0]?.name === BEGIN;
  }

  requiresPreparation() {
    return true;
  }

  prepare(connection: Connection) {
    for (const step of this.steps) {
      connection.bind({ statement: step.name, portal: "", values: step.values });
      connection.describe({ type: "P", name: "" });
      connection.execute({ portal: "" });
    }
    connection.sync();
  }
}

type Queryable = pg.Pool | pg.ClientBase;

/**
 * Run `steps` on `client` (a transaction's connection, or the pool) in one round trip when they
 * can ride together (above), else one after another. The rows of each, in order.
 */
export async function runPipelined(
  client: Queryable,
  steps: PipelineStep[],
  types: pg.CustomTypesConfig,
): Promise<Record<string, unknown>[][]> {
  const connection = (client as { connection?: Connection }).connection;
  const pooled = client instanceof pg.Pool;
  // "T": in a transaction block, as the connection's last ReadyForQuery said.
  const inTransaction = !pooled && client.getTransactionStatus() === "T";
  const opening = !pooled && !inTransaction && beginPending(client);
  const together =
    steps.length > 1 &&
    connection !== undefined &&
    (inTransaction || opening) &&
    steps.every((step) => connection.parsedStatements[step.name] === step.text);
  if (!together) {
    const results: Record<string, unknown>[][] = [];
    for (const step of steps) {
      const result = await client.query({ name: step.name, text: step.text, values: step.values, types });
      results.push(result.rows);
    }
    return results;
  }
  const sent = opening ? [{ name: BEGIN, text: "begin", values: [] }, ...steps] : steps;
  const results = await send<Record<string, unknown>>(client as pg.ClientBase, sent, types);
  return results.slice(sent.length - steps.length);
}

/** `steps` in one write, one Sync; the rows of each, in order. */
async function send<Row>(client: pg.ClientBase, steps: PipelineStep[], types: pg.CustomTypesConfig, rowMode?: "array") {
  // The values mapped before anything is written: a value that cannot be sent throws here, not
  // halfway through the pipeline's messages (which would leave the connection without its Sync).
  const mapped = steps.map((step) => ({ ...step, values: step.values.map(prepareValue) }));
  const query = new Pipelined(mapped, types, rowMode);
  const answered = await new Promise<pg.QueryResult | pg.QueryResult[]>((resolve, reject) => {
    query.callback = (error, result) => (error ? reject(error) : resolve(result as pg.QueryResult | pg.QueryResult[]));
    client.query(query as unknown as pg.QueryConfig);
  });
  const results = Array.isArray(answered) ? answered : [answered];
  if (results.length !== steps.length) {
    throw new Error(`pipeline: ${steps.length} statements answered with ${results.length} results`);
  }
  return results.map((result) => result.rows as Row[]);
}

/**
 * Issue 24 item 2: reads that do not wait on each other's answers (opening a chat: the ticket and
 * its page), in one round trip on one pooled connection, their rows as arrays (drizzle's prepared
 * selects map them). Outside a transaction the statements up to the Sync make one implicit
 * transaction, which for reads changes nothing: each still reads as it would alone. As above, only
 * statements already parsed on the connection ride together; otherwise they run one after another
 * on it, which parses them there for the next time. Inside a transaction, on its connection.
 */
export async function runReadsTogether(
  client: Queryable,
  steps: PipelineStep[],
  types: pg.CustomTypesConfig,
): Promise<unknown[][][]> {
  if (!(client instanceof pg.Pool)) return readOn(client, steps, types);
  const connection = await client.connect();
  let broken: Error | undefined;
  try {
    return await readOn(connection, steps, types);
  } catch (error) {
    // A statement's error leaves the connection ready for the next; anything else (the connection
    // lost) and the pool must not hand it out again.
    if (!(error instanceof pg.DatabaseError)) broken = error as Error;
    throw error;
  } finally {
    connection.release(broken);
  }
}

async function readOn(client: pg.ClientBase, steps: PipelineStep[], types: pg.CustomTypesConfig): Promise<unknown[][][]> {
  const connection = (client as { connection?: Connection }).connection;
  if (steps.length > 1 && connection && steps.every((step) => connection.parsedStatements[step.name] === step.text)) {
    return send<unknown[]>(client, steps, types, "array");
  }
  const results: unknown[][][] = [];
  for (const step of steps) {
    const result = await client.query({ name: step.name, text: step.text, values: step.values, types, rowMode: "array" });
    results.push(result.rows);
  }
  return results;
}
