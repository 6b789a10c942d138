import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../../test/harness.js";
import { ERASED_TABLES, TABLES_WITHOUT_CUSTOMER_DATA } from "./erase-coverage.js";

let database: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
  await database.drop();
});

async function rows<T>(text: ReturnType<typeof sql>): Promise<T[]> {
  return ((await database.db.execute(text)) as unknown as { rows: T[] }).rows;
}

/**
 * A new table that can hold something of a customer must be known to the erasure: this reads the
 * migrated schema's foreign keys (information_schema) and every table, and compares them with
 * erase-coverage.ts.
 */
describe("the erasure knows every table", () => {
  it("covers every table that reaches contacts through foreign keys", async () => {
    const keys = await rows<{ child: string; parent: string }>(sql`
      select tc.table_name as child, ccu.table_name as parent
      from information_schema.table_constraints tc
      join information_schema.constraint_column_usage ccu
        on ccu.constraint_name = tc.constraint_name and ccu.constraint_schema = tc.constraint_schema
      where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = 'public'`);
    const reaching = new Set(["contacts"]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const { child, parent } of keys) {
        if (reaching.has(parent) && !reaching.has(child)) {
          reaching.add(child);
          grew = true;
        }
      }
    }
    // Sanity: the walk found the known chain (contacts → tickets → messages → outbox).
    expect([...reaching]).toEqual(expect.arrayContaining(["tickets", "messages", "outbox", "note_mentions"]));
    const unknown = [...reaching].filter((table) => !(table in ERASED_TABLES));
    expect(unknown, "tables linked to contacts that the erasure does not know: add them to ERASED_TABLES").toEqual([]);
  });

  it("has decided about every table, and lists none that does not exist", async () => {
    const tables = (
      await rows<{ name: string }>(sql`
        select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE'`)
    ).map((r) => r.name);
    const decided = { ...ERASED_TABLES, ...TABLES_WITHOUT_CUSTOMER_DATA };
    expect(Object.keys(ERASED_TABLES).filter((name) => name in TABLES_WITHOUT_CUSTOMER_DATA)).toEqual([]);
    expect(
      tables.filter((name) => !(name in decided)),
      "new tables: say in erase-coverage.ts whether an erasure removes what they hold",
    ).toEqual([]);
    expect(Object.keys(decided).filter((name) => !tables.includes(name))).toEqual([]);
  });
});
