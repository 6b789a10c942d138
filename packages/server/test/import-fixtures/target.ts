import type { Database } from "../../src/db/client.js";

export type Target = Database & { url: string; drop(): Promise<void> };
export const count = async (db: Database, sql: string, params: unknown[] = []) =>
  Number(((await db.query<{ n: string }>(sql, params))[0] as { n: string }).n);

/** Every row of the entities an import writes, for "nothing changed" checks. */
export async function totals(db: Database) {
  const tables = [
    "users",
    "queues",
    "user_queues",
    "whatsapps",
    "whatsapp_queues",
    "quick_answers",
    "tags",
    "contacts",
    "contact_extra_info",
    "contact_tags",
    "tickets",
    "ticket_tags",
    "messages",
  ];
  const out: Record<string, number> = {};
  for (const t of tables) out[t] = await count(db, `select count(*) as n from ${t}`);
  return out;
}
