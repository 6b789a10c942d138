import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { namedStatement, runNamed } from "../../db/prepared.js";
import { settings } from "../../db/schema.js";

export type SettingRow = typeof settings.$inferSelect;

export function listSettings(db: Db, keys?: readonly string[]): Promise<SettingRow[]> {
  const query = db.select().from(settings);
  return (keys ? query.where(inArray(settings.key, [...keys])) : query).orderBy(asc(settings.key));
}

// Issue 24 item 5: read on every agent's inbox (whether the greeting menu's tickets show), among
// others: a named statement, parsed once per connection, on the pool or in a transaction.
const settingValue = namedStatement(
  "settings_value",
  sql`select ${settings.value} from ${settings} where ${settings.key} = ${sql.placeholder("key")}`,
);

export async function getSettingValue(db: Db, key: string): Promise<string | undefined> {
  const [row] = await runNamed<{ value: string }>(db, settingValue, { key });
  return row?.value;
}

export async function updateSetting(db: Db, key: string, value: string): Promise<SettingRow | undefined> {
  const [row] = await db.update(settings).set({ value, updatedAt: new Date() }).where(eq(settings.key, key)).returning();
  return row;
}
