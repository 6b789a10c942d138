import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import mysql from "mysql2/promise";
import pg from "pg";
import { inject } from "vitest";
import { withDatabase } from "../global-setup.js";

const here = dirname(fileURLToPath(import.meta.url));

/** The MariaDB/MySQL server for the MySQL flavours: TEST_MYSQL_URL, else the local MariaDB (root, no password). */
export const MYSQL_SERVER = process.env.TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/";

export interface SourceDb {
  url: string;
  dialect: "mysql" | "pg";
  /** Run `work` with the source's foreign keys unchecked (rows that refer to rows inserted later). */
  withoutForeignKeys(work: () => Promise<void>): Promise<void>;
  /** Run SQL in the source (`?` placeholders in both dialects). */
  run(sql: string, params?: unknown[]): Promise<void>;
  /** Insert rows into a table in chunks (columns from the first row). */
  insert(table: string, rows: Record<string, unknown>[]): Promise<void>;
  drop(): Promise<void>;
}

export async function mysqlReachable(): Promise<boolean> {
  try {
    const c = await mysql.createConnection({ uri: MYSQL_SERVER, connectTimeout: 2000 });
    await c.end();
    return true;
  } catch {
    return false;
  }
}

/** A uniquely named MariaDB database loaded with a fixture's schema. */
export async function mysqlSource(...fixtures: string[]): Promise<SourceDb> {
  const name = `zapdesk_src_${randomBytes(5).toString("hex")}`;
  const admin = await mysql.createConnection({ uri: MYSQL_SERVER, multipleStatements: true });
  await admin.query(`create database \`${name}\` character set utf8mb4 collate utf8mb4_unicode_ci`);
  await admin.end();
  const url = new URL(MYSQL_SERVER);
  url.pathname = `/${name}`;
  // The Sequelize session timezone of the MySQL flavours: DATETIME values are written in -03:00.
  const conn = await mysql.createConnection({
    uri: url.toString(),
    multipleStatements: true,
    timezone: "-03:00",
    charset: "utf8mb4",
  });
  for (const fixture of fixtures) await conn.query(readFileSync(join(here, fixture), "utf8"));
  return {
    url: url.toString(),
    dialect: "mysql",
    withoutForeignKeys: async (work) => {
      await conn.query("SET FOREIGN_KEY_CHECKS = 0");
      try {
        await work();
      } finally {
        await conn.query("SET FOREIGN_KEY_CHECKS = 1");
      }
    },
    run: async (sql, params = []) => {
      await conn.query(sql.replace(/"/g, "`"), params);
    },
    insert: async (table, rows) => {
      if (!rows.length) return;
      const columns = Object.keys(rows[0] as object);
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = rows.slice(i, i + 500);
        await conn.query(`insert into \`${table}\` (${columns.map((c) => `\`${c}\``).join(", ")}) values ?`, [
          chunk.map((r) => columns.map((c) => r[c] ?? null)),
        ]);
      }
    },
    drop: async () => {
      await conn.query(`drop database \`${name}\``);
      await conn.end();
    },
  };
}

/** A uniquely named PostgreSQL database (on the run's server, embedded by default) loaded with a fixture's schema. */
export async function pgSource(fixture: string): Promise<SourceDb> {
  const server = inject("pgServerUrl");
  const name = `zapdesk_src_${inject("pgRunId")}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = withDatabase(server, name);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(readFileSync(join(here, fixture), "utf8"));
  const toPg = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    url,
    dialect: "pg",
    // The session's foreign-key triggers are not fired as a replica (the test's server user is a superuser).
    withoutForeignKeys: async (work) => {
      await client.query("set session_replication_role = replica");
      try {
        await work();
      } finally {
        await client.query("set session_replication_role = default");
      }
    },
    run: async (sql, params = []) => {
      await client.query(toPg(sql), params);
    },
    insert: async (table, rows) => {
      if (!rows.length) return;
      const columns = Object.keys(rows[0] as object);
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = rows.slice(i, i + 500);
        const params: unknown[] = [];
        const tuples = chunk.map(
          (r) =>
            `(${columns
              .map((c) => {
                params.push(r[c] ?? null);
                return `$${params.length}`;
              })
              .join(", ")})`,
        );
        await client.query(
          `insert into "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) values ${tuples.join(", ")}`,
          params,
        );
      }
    },
    drop: async () => {
      await client.end();
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
