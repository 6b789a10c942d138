import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import type { Database } from "./client.js";

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), "migrations");
// Any constant: serialises migrations when several processes start together.
const LOCK_KEY = 74_210_001;

export function listMigrations(dir = MIGRATIONS_DIR): { name: string; statements: string[] }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((file) => ({
      name: file.replace(/\.sql$/, ""),
      statements: readFileSync(join(dir, file), "utf8")
        .split("--> statement-breakpoint")
        .map((s) => s.trim())
        .filter(Boolean),
    }));
}

/**
 * Apply every committed migration not applied yet, in one transaction. `only`: just these (the
 * move from PGlite brings the new database to the old one's level first, then copies).
 */
export async function migrate(database: Database, options: { only?: ReadonlySet<string> } = {}): Promise<string[]> {
  const applied: string[] = [];
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_KEY})`);
    await tx.execute(
      sql`create table if not exists zapdesk_migrations (name text primary key, applied_at timestamptz not null default now())`,
    );
    const done = (await tx.execute(sql`select name from zapdesk_migrations`)) as unknown as { rows: { name: string }[] };
    const seen = new Set(done.rows.map((r) => r.name));
    for (const migration of listMigrations()) {
      if (seen.has(migration.name) || (options.only && !options.only.has(migration.name))) continue;
      for (const statement of migration.statements) await tx.execute(sql.raw(statement));
      await tx.execute(sql`insert into zapdesk_migrations (name) values (${migration.name})`);
      applied.push(migration.name);
    }
  });
  return applied;
}
