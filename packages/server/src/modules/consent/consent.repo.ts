import { type ConsentConfig, type ConsentRecord, DEFAULT_OPT_OUT_WORDS } from "@zapdesk/core";
import { and, eq, inArray, or, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { consentConfigs, consentRecords, settings } from "../../db/schema.js";

export type ConsentConfigRow = typeof consentConfigs.$inferSelect;
export type NewConsentRecord = typeof consentRecords.$inferInsert;

/** The setting that holds the install-wide opt-out words (a JSON list of strings). */
export const OPT_OUT_WORDS_KEY = "consentOptOutWords";

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** The install-wide opt-out words (the defaults while no admin changed them). */
export async function optOutWords(db: Db): Promise<string[]> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, OPT_OUT_WORDS_KEY));
  return parseWords(row?.value ?? null);
}

/** The stored words, or the defaults (no row, or a hand-edited row that is not a JSON list: never no words at all). */
function parseWords(value: string | null): string[] {
  if (value === null) return [...DEFAULT_OPT_OUT_WORDS];
  try {
    const parsed = JSON.parse(value) as unknown;
    if (Array.isArray(parsed) && parsed.length > 0 && parsed.every((w) => typeof w === "string")) return parsed;
  } catch {
    // Not JSON: the defaults.
  }
  return [...DEFAULT_OPT_OUT_WORDS];
}

export async function saveOptOutWords(db: Db, words: string[]): Promise<void> {
  const value = JSON.stringify(words);
  await db
    .insert(settings)
    .values({ key: OPT_OUT_WORDS_KEY, value })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
}

/** The contacts among `contactIds` who opted out and have not written since: contact id → since when. */
export async function optedOut(db: Db, contactIds: number[]): Promise<Map<number, Date>> {
  if (contactIds.length === 0) return new Map();
  const found = await rows<{ contact_id: number; kind: string; created_at: Date | string }>(
    db,
    sql`select distinct on (contact_id) contact_id, kind, created_at from ${consentRecords}
        where contact_id = any(${sql.param(contactIds)}::int[]) and kind in ('opted_out', 'opted_in')
        order by contact_id, id desc`,
  );
  return new Map(found.filter((r) => r.kind === "opted_out").map((r) => [Number(r.contact_id), new Date(r.created_at)]));
}

/**
 * What the inbound step needs, in one round trip (the inbound path counts its statements): the
 * opt-out words, which of the contacts are opted out, and the enabled consent messages of the
 * connection and of the given queues.
 */
export async function inboundState(db: Db, whatsappId: number, contactIds: number[], queueIds: number[]) {
  const [row] = await rows<{ words: string | null; out: unknown; configs: unknown }>(
    db,
    sql`select
      (select value from ${settings} where key = ${OPT_OUT_WORDS_KEY}) as words,
      (select coalesce(json_agg(x.contact_id), '[]') from (
        select distinct on (contact_id) contact_id, kind from ${consentRecords}
        where contact_id = any(${sql.param(contactIds)}::int[]) and kind in ('opted_out', 'opted_in')
        order by contact_id, id desc) x where x.kind = 'opted_out') as out,
      (select coalesce(json_agg(c.id), '[]') from ${consentConfigs} c
        where c.enabled and (c.whatsapp_id = ${whatsappId} or c.queue_id = any(${sql.param(queueIds)}::int[]))) as configs`,
  );
  const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value) as number[];
  return inboundStateOf(db, { words: row.words, optedOut: json(row.out).map(Number), configIds: json(row.configs) });
}

export type InboundConsentState = Awaited<ReturnType<typeof inboundState>>;

/**
 * Issue 24: the inbound state from the raw values another statement read (the batch's ticket
 * update returns them, `consentColumns`); the enabled consent messages' rows are read only when there are some.
 */
export async function inboundStateOf(db: Db, raw: { words: string | null; optedOut: number[]; configIds: number[] }) {
  return {
    words: parseWords(raw.words),
    optedOut: new Set(raw.optedOut),
    configs: raw.configIds.length
      ? await db.select().from(consentConfigs).where(inArray(consentConfigs.id, raw.configIds))
      : ([] as ConsentConfigRow[]),
  };
}

/**
 * Issue 24: `inboundState`'s reads as columns of a statement over `tickets` (the batch's ticket
 * update): the opt-out words, whether the ticket's contact is opted out, and the enabled consent
 * messages of the connection and of the ticket's queue.
 */
export function consentColumns(whatsappId: number | Placeholder) {
  return {
    consentWords: sql<string | null>`(select value from ${settings} where key = ${OPT_OUT_WORDS_KEY})`,
    consentOptedOut: sql<boolean | null>`(select x.kind = 'opted_out' from ${consentRecords} x
      where x.contact_id = "tickets"."contact_id" and x.kind in ('opted_out', 'opted_in') order by x.id desc limit 1)`,
    consentConfigIds: sql<number[]>`coalesce((select json_agg(c.id) from ${consentConfigs} c
      where c.enabled and (c.whatsapp_id = ${whatsappId} or c.queue_id = "tickets"."queue_id")), '[]'::json)`,
  };
}

export async function isOptedOut(db: Db, contactId: number): Promise<Date | undefined> {
  return (await optedOut(db, [contactId])).get(contactId);
}

/** The consent records of contacts on the scopes of `configs` (asked and answers only), oldest first. */
export async function scopeRecords(db: Db, contactIds: number[], configs: ConsentConfigRow[]) {
  if (contactIds.length === 0 || configs.length === 0) return [];
  const connectionIds = configs.flatMap((c) => (c.whatsappId === null ? [] : [c.whatsappId]));
  const queueIds = configs.flatMap((c) => (c.queueId === null ? [] : [c.queueId]));
  return db
    .select({
      contactId: consentRecords.contactId,
      kind: consentRecords.kind,
      whatsappId: consentRecords.whatsappId,
      queueId: consentRecords.queueId,
      ticketId: consentRecords.ticketId,
    })
    .from(consentRecords)
    .where(
      and(
        inArray(consentRecords.contactId, contactIds),
        inArray(consentRecords.kind, ["asked", "accepted", "declined"]),
        or(
          queueIds.length ? inArray(consentRecords.queueId, queueIds) : sql`false`,
          connectionIds.length
            ? and(inArray(consentRecords.whatsappId, connectionIds), sql`${consentRecords.queueId} is null`)
            : sql`false`,
        ),
      ),
    )
    .orderBy(consentRecords.id);
}

export async function insertRecords(db: Db, records: NewConsentRecord[]): Promise<void> {
  if (records.length) await db.insert(consentRecords).values(records);
}

export function presentConfig(row: ConsentConfigRow): ConsentConfig {
  return {
    id: row.id,
    whatsappId: row.whatsappId,
    queueId: row.queueId,
    enabled: row.enabled,
    message: row.message,
    privacyUrl: row.privacyUrl,
    acceptWords: row.acceptWords,
    declineWords: row.declineWords,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function listConfigs(db: Db): Promise<ConsentConfigRow[]> {
  return db.select().from(consentConfigs).orderBy(consentConfigs.id);
}

/** A contact's records, newest first, with the names of their connection and queue. */
export async function recordsOf(db: Db, contactId: number): Promise<ConsentRecord[]> {
  const found = await rows<{
    id: number | string;
    kind: ConsentRecord["kind"];
    whatsapp_id: number | null;
    connection: string | null;
    queue_id: number | null;
    queue: string | null;
    ticket_id: number | null;
    wid: string | null;
    text: string | null;
    created_at: Date | string;
  }>(
    db,
    sql`select r.id, r.kind, r.whatsapp_id, w.name as connection, r.queue_id, q.name as queue, r.ticket_id,
          coalesce(m.wid, r.message_wid) as wid, r.text, r.created_at
        from ${consentRecords} r
        left join whatsapps w on w.id = r.whatsapp_id
        left join queues q on q.id = r.queue_id
        left join messages m on m.id = r.message_id
        where r.contact_id = ${contactId} order by r.id desc limit 200`,
  );
  return found.map((r) => ({
    id: Number(r.id),
    kind: r.kind,
    whatsappId: r.whatsapp_id === null ? null : Number(r.whatsapp_id),
    connection: r.connection,
    queueId: r.queue_id === null ? null : Number(r.queue_id),
    queue: r.queue,
    ticketId: r.ticket_id === null ? null : Number(r.ticket_id),
    messageWid: r.wid,
    text: r.text,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}
