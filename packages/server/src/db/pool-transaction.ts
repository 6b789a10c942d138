import { type SQL, sql } from "drizzle-orm";
import { NodePgSession, NodePgTransaction } from "drizzle-orm/node-postgres";
import type { PgTransactionConfig } from "drizzle-orm/pg-core";
import pg from "pg";
import { beginWithFirstQuery } from "./begin-pipeline.js";

/**
 * drizzle-orm 0.45's node-postgres `transaction()` takes a client from the pool and runs BEGIN
 * *before* the try/finally that gives it back (drizzle-team/drizzle-orm#6241, #6114, open as of
 * late 2026). When BEGIN fails — the connection died while the client sat idle in the pool, which
 * is exactly what a database outage or restart leaves behind — the client is never released: the
 * pool loses a slot for good, and after `max` such failures every request waits forever (and
 * `pool.end()` never returns). And when ROLLBACK fails too, the client went back to the pool as if
 * healthy and the rollback's error hid the one that mattered.
 *
 * This replaces that one method with the same steps in a safe order: BEGIN inside the try, the
 * client released on every path (destroyed when BEGIN or ROLLBACK failed, since its session state
 * is then unknown), and the caller gets the original error. Remove it when drizzle ships the fix
 * (the test beside this file fails on an unpatched drizzle).
 */
type SessionInternals = {
  client: pg.Pool | pg.PoolClient;
  dialect: unknown;
  schema: unknown;
  options: unknown;
};
interface TransactionInternals {
  execute(query: SQL): Promise<unknown>;
  getTransactionConfigSQL(config: PgTransactionConfig): SQL;
}

let installed = false;

export function installPoolTransactionFix(): void {
  if (installed) return;
  installed = true;
  const prototype = NodePgSession.prototype as unknown as {
    transaction: (
      this: SessionInternals,
      run: (tx: unknown) => Promise<unknown>,
      config?: PgTransactionConfig,
    ) => Promise<unknown>;
  };
  prototype.transaction = async function transaction(this: SessionInternals, run, config) {
    const pooled = this.client instanceof pg.Pool;
    const Session = NodePgSession as unknown as new (...args: unknown[]) => SessionInternals;
    const Transaction = NodePgTransaction as unknown as new (...args: unknown[]) => TransactionInternals;
    const client = pooled ? await (this.client as pg.Pool).connect() : undefined;
    const session = client ? new Session(client, this.dialect, this.schema, this.options) : this;
    // Issue 24 item 1: without the schema, the handle skips building a relational query builder
    // for every table (about 0.06 ms a transaction); this code base never uses `tx.query.*`.
    const tx = new Transaction(this.dialect, session, undefined);
    // commit and rollback are sent as the fixed texts they are, not built by drizzle each time;
    // BEGIN goes with the transaction's first statement (begin-pipeline.ts, issue 24).
    const connection = session.client as pg.ClientBase;
    const send = (text: string) => connection.query(text);
    let broken: Error | undefined;
    let lazy: ReturnType<typeof beginWithFirstQuery> | undefined;
    let begun = false;
    try {
      if (config) {
        await tx.execute(sql`begin ${tx.getTransactionConfigSQL(config)}`);
        begun = true;
      } else lazy = beginWithFirstQuery(connection);
      const result = await run(tx);
      // No statement, no transaction: nothing to commit.
      if (begun || lazy?.begun()) await send("commit");
      return result;
    } catch (error) {
      if (!begun && !lazy?.begun()) {
        // BEGIN itself failed (an explicit one): the connection's state is unknown.
        if (config) broken = error instanceof Error ? error : new Error(String(error));
      } else {
        try {
          await send("rollback");
        } catch (rollbackError) {
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        }
      }
      throw error;
    } finally {
      lazy?.restore();
      // A client whose BEGIN or ROLLBACK failed is in an unknown state: the pool discards it.
      client?.release(broken);
    }
  };
}
