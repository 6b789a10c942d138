import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, type Db, openDatabase } from "../client.js";
import { listMigrations, migrate } from "../migrate.js";
import { seed } from "../seed.js";
import { MOVED_PGLITE_DIR, PGLITE_DIR } from "./pglite-move.js";

const dataDir = mkdtempSync(join(tmpdir(), "zapdesk-move-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const MIGRATIONS = listMigrations().map((m) => m.name);
const OLD_LEVEL = MIGRATIONS.slice(0, -1);

const countsSql = `select c.relname as name from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' order by 1`;

/** An install of the PGlite era: DATA_DIR/pgdata, migrated, with an admin, customers, a conversation, deleted rows. */
async function pgliteInstall(): Promise<{ counts: Record<string, number>; sequences: Record<string, string | null> }> {
  const pglite = await PGlite.create(join(dataDir, PGLITE_DIR), { extensions: { pg_trgm, unaccent } });
  const db = drizzle(pglite) as unknown as Db;
  // An install one migration behind this version's.
  await migrate({ db, kind: "embedded" } as unknown as Database, { only: new Set(OLD_LEVEL) });
  await seed(db, { email: "admin@old.install", password: "old-pass", name: "Old Admin" });
  const q = async <T>(sql: string, params?: unknown[]) => (await pglite.query<T>(sql, params)).rows;
  const contacts = await q<{ id: number }>(
    `insert into contacts (name, number) select 'Cliente ' || g || ' Ação', '55119' || lpad(g::text, 8, '0') from generate_series(1, 300) g returning id`,
  );
  // Gaps: the sequence stands past the highest id still there.
  await q("delete from contacts where id > $1", [contacts[249]!.id]);
  const [ticket] = await q<{ id: number }>("insert into tickets (contact_id, status) values ($1, 'open') returning id", [
    contacts[0]!.id,
  ]);
  await q(
    `insert into messages (ticket_id, contact_id, body, wid, created_at, raw, reactions)
     select $1, $2, 'mensagem ' || g || ' sobre a entrega — até amanhã 🙂', 'W' || g,
       timestamptz '2026-03-01 10:00:00.123456+00' + g * interval '1 second', jsonb_build_object('n', g, 'big', 9007199254740993::numeric), '[]'
     from generate_series(1, 2000) g`,
    [ticket!.id, contacts[0]!.id],
  );
  const counts: Record<string, number> = {};
  for (const { name } of await q<{ name: string }>(countsSql)) {
    counts[name] = (await q<{ n: number }>(`select count(*)::int as n from "${name}"`))[0]!.n;
  }
  const sequences = Object.fromEntries(
    (
      await q<{ name: string; value: string | null }>("select sequencename as name, last_value::text as value from pg_sequences")
    ).map((s) => [s.name, s.value]),
  );
  await pglite.close();
  return { counts, sequences };
}

describe("an embedded PGlite install, on its first start as PostgreSQL", () => {
  it("is moved over, verified table by table, its sequences carried on, and the old folder kept", async () => {
    const before = await pgliteInstall();
    // A stray table PGlite has and the schema does not: the move stops before copying anything.
    const stray = await PGlite.create(join(dataDir, PGLITE_DIR), { extensions: { pg_trgm, unaccent } });
    await stray.exec("create table stray (x int)");
    await stray.close();
    await expect(openDatabase({ dataDir })).rejects.toThrow(/differ from the new schema/);
    expect(existsSync(join(dataDir, PGLITE_DIR, "PG_VERSION"))).toBe(true);
    const fixed = await PGlite.create(join(dataDir, PGLITE_DIR), { extensions: { pg_trgm, unaccent } });
    await fixed.exec("drop table stray");
    await fixed.close();

    const lines: string[] = [];
    const database = await openDatabase({ dataDir, embedded: { log: (line) => lines.push(line) } });
    try {
      for (const [table, rows] of Object.entries(before.counts)) {
        const [row] = await database.query<{ n: number }>(`select count(*)::int as n from "${table}"`);
        expect(row!.n, table).toBe(rows);
      }
      expect(before.counts.messages).toBe(2000);
      const sequences = await database.query<{ name: string; value: string | null }>(
        "select sequencename as name, last_value::text as value from pg_sequences where schemaname = 'public'",
      );
      expect(Object.fromEntries(sequences.map((s) => [s.name, s.value]))).toEqual(before.sequences);
      // The next contact takes the next id, past the deleted ones: no collision, no reuse.
      const [next] = await database.query<{ id: number }>(
        "insert into contacts (name, number) values ('New', '5511999999999') returning id",
      );
      expect(next!.id).toBe(Number(before.sequences.contacts_id_seq) + 1);
      // Values arrive whole: microseconds, a numeric past 2^53, text outside ASCII; the search vector is computed again.
      const [message] = await database.query<{ at: string; big: string; body: string; found: boolean }>(
        `select created_at::text as at, (raw->>'big') as big, body, search @@ to_tsquery('simple', 'entrega') as found
         from messages where wid = 'W7'`,
      );
      expect(message).toEqual({
        at: "2026-03-01 10:00:07.123456+00",
        big: "9007199254740993",
        body: "mensagem 7 sobre a entrega — até amanhã 🙂",
        found: true,
      });
      const [admin] = await database.query<{ email: string }>("select email from users where profile = 'admin'");
      expect(admin!.email).toBe("admin@old.install");
      // Moved at the old level; the start then applies what the old version lacked.
      expect(await migrate(database)).toEqual(MIGRATIONS.slice(-1));
    } finally {
      await database.close();
    }
    const keptAt = join(dataDir, MOVED_PGLITE_DIR);
    expect(existsSync(join(dataDir, PGLITE_DIR))).toBe(false);
    expect(existsSync(join(keptAt, "PG_VERSION"))).toBe(true);
    // Only read: the kept folder is still the old version's database, at its level.
    const kept = await PGlite.create(keptAt, { extensions: { pg_trgm, unaccent } });
    expect(
      (await kept.query<{ name: string }>("select name from zapdesk_migrations order by name")).rows.map((r) => r.name),
    ).toEqual(OLD_LEVEL);
    await kept.close();
    expect(lines.join("\n")).toContain(`The old PGlite folder is kept at ${keptAt}`);

    // The next start finds nothing to move.
    const again: string[] = [];
    const reopened = await openDatabase({ dataDir, embedded: { log: (line) => again.push(line) } });
    await reopened.close();
    expect(again.join("\n")).not.toContain("moving");
  }, 240_000);
});
