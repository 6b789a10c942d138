import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { settings } from "../../db/schema.js";

export type SettingRow = typeof settings.$inferSelect;

export function listSettings(db: Db, keys?: readonly string[]): Promise<SettingRow[]> {
  const query = db.select().from(settings);
  return (keys ? query.where(inArray(settings.key, [...keys])) : query).orderBy(asc(settings.key));
}

export async function getSettingValue(db: Db, key: string): Promise<string | undefined> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row?.value;
}

export async function updateSetting(db: Db, key: string, value: string): Promise<SettingRow | undefined> {
  const [row] = await db.update(settings).set({ value, updatedAt: new Date() }).where(eq(settings.key, key)).returning();
  return row;
}
