import { MEDIA_STATE, type RetentionCounts, type RetentionPolicy, type RetentionRun } from "@zapdesk/core";
import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import { rowsOf } from "../../backup/snapshot.js";
import type { Db, Tx } from "../../db/client.js";
import { auditLog, legalHolds, retentionPolicies } from "../../db/schema.js";
import { anonymiseBatch, previewContacts } from "./anonymise-sweep.js";

/** Tickets one batch of the sweep takes (each with all its messages). */
export const SWEEP_BATCH_TICKETS = 50;

/** Any constant: one sweeper at a time across every process (a transaction-level advisory lock). */
const SWEEP_LOCK = 7_214_003_119;

export async function listPolicies(db: Db): Promise<RetentionPolicy[]> {
  const rows = await db
    .select({
      queueId: retentionPolicies.queueId,
      enabled: retentionPolicies.enabled,
      days: retentionPolicies.days,
      remove: retentionPolicies.remove,
    })
    .from(retentionPolicies)
    .orderBy(sql`${retentionPolicies.queueId} nulls first`);
  return rows;
}

export async function findPolicy(db: Db, queueId: number | null): Promise<RetentionPolicy | undefined> {
  const [row] = await db
    .select({
      queueId: retentionPolicies.queueId,
      enabled: retentionPolicies.enabled,
      days: retentionPolicies.days,
      remove: retentionPolicies.remove,
    })
    .from(retentionPolicies)
    .where(queueId === null ? isNull(retentionPolicies.queueId) : eq(retentionPolicies.queueId, queueId));
  return row;
}

export async function upsertPolicy(db: Db, policy: RetentionPolicy): Promise<void> {
  // The key is an expression (one default row, whose queue_id is null): drizzle's upsert names columns only.
  await db.execute(sql`
    insert into retention_policies (queue_id, enabled, days, remove)
    values (${policy.queueId}, ${policy.enabled}, ${policy.days}, ${policy.remove})
    on conflict (coalesce(queue_id, 0)) do update
      set enabled = excluded.enabled, days = excluded.days, remove = excluded.remove, updated_at = now()`);
}

export async function deletePolicy(db: Db, queueId: number): Promise<boolean> {
  const deleted = await db
    .delete(retentionPolicies)
    .where(eq(retentionPolicies.queueId, queueId))
    .returning({ id: retentionPolicies.id });
  return deleted.length > 0;
}

/** The last sweep that removed anything, as the audit trail recorded it. */
export async function lastRun(db: Db): Promise<RetentionRun | null> {
  const [row] = await db
    .select({ details: auditLog.details, at: auditLog.createdAt })
    .from(auditLog)
    .where(eq(auditLog.action, "retention.run"))
    .orderBy(desc(auditLog.id))
    .limit(1);
  if (!row) return null;
  const n = (key: string) => Number(row.details[key] ?? 0);
  return {
    at: row.at.toISOString(),
    tickets: n("tickets"),
    messages: n("messages"),
    files: n("files"),
    contacts: n("contacts"),
  };
}

/**
 * The policy that governs each ticket: its queue's own row, else the default (queue_id null).
 * Tickets closed before the close time was recorded fall back to their last update.
 */
const governed = sql`
  from tickets t
  join lateral (
    select r.enabled, r.days, r.remove from retention_policies r
    where r.queue_id = t.queue_id or r.queue_id is null
    order by r.queue_id nulls last
    limit 1
  ) p on p.enabled
  where t.status = 'closed'
    and coalesce(t.closed_at, t.updated_at) < now() - make_interval(days => p.days)
    and not exists (select 1 from legal_holds h where h.ticket_id = t.id or h.contact_id = t.contact_id)`;

/** A ticket a batch swept, with who may see it (the realtime announcement's audience). */
export interface SweptTicket {
  ticketId: number;
  userId: number | null;
  queueId: number | null;
  remove: RetentionPolicy["remove"];
}

export interface SweepBatch {
  busy: boolean;
  counts: RetentionCounts;
  tickets: SweptTicket[];
  contactIds: number[];
}

/**
 * One batch of the sweep in the caller's transaction; `busy` when another process is sweeping.
 * The tickets' messages first (an `anonymise` policy removes them like `messages`), then the
 * contacts whose conversations are all gone and that nothing else refers to (anonymise-sweep.ts).
 */
export async function sweepBatch(tx: Tx): Promise<SweepBatch> {
  const none = { tickets: 0, messages: 0, files: 0, contacts: 0 };
  const [lock] = await rowsOf<{ locked: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${SWEEP_LOCK}::bigint) as locked`);
  if (!lock?.locked) return { busy: true, counts: none, tickets: [], contactIds: [] };
  const due = await rowsOf<SweptTicket>(
    tx,
    sql`
      select t.id as "ticketId", t.user_id as "userId", t.queue_id as "queueId", p.remove ${governed}
        and exists (select 1 from messages m where m.ticket_id = t.id and (p.remove <> 'media' or m.media_path is not null))
      order by t.id
      limit ${SWEEP_BATCH_TICKETS}`,
  );
  const ids = (keep: (remove: RetentionPolicy["remove"]) => boolean) => due.filter((d) => keep(d.remove)).map((d) => d.ticketId);
  const mediaOnly = ids((r) => r === "media");
  const everything = ids((r) => r !== "media");
  const cleared = mediaOnly.length
    ? await rowsOf<{ path: string }>(
        tx,
        sql`
          update messages m set media_path = null, media_error = ${MEDIA_STATE.removedByRetention}, updated_at = now()
          from (select id, media_path from messages
                where ticket_id = any(${sql.param(mediaOnly)}::int[]) and media_path is not null for update) old
          where m.id = old.id
          returning old.media_path as path`,
      )
    : [];
  // What names the messages elsewhere goes with them: webhook deliveries (their frozen bodies hold
  // the text) and import mappings.
  if (everything.length) {
    const gone = sql`(select id from messages where ticket_id = any(${sql.param(everything)}::int[]))`;
    await tx.execute(sql`delete from webhook_deliveries where event like 'message.%' and entity_id in ${gone}`);
    await tx.execute(sql`delete from import_map where entity in ('message', 'note') and target_id in ${gone}`);
  }
  const deleted = everything.length
    ? await rowsOf<{ path: string | null }>(
        tx,
        sql`delete from messages where ticket_id = any(${sql.param(everything)}::int[]) returning media_path as path`,
      )
    : [];
  // The ticket's preview was the text of a message that is gone.
  if (everything.length)
    await tx.execute(sql`update tickets set last_message = '' where id = any(${sql.param(everything)}::int[])`);
  const paths = [...cleared, ...deleted].map((r) => r.path).filter((p): p is string => !!p);
  if (paths.length) await tx.execute(sql`insert into media_deletions (path) select unnest(${sql.param(paths)}::text[])`);
  const anonymised = await anonymiseBatch(tx);
  const counts = {
    tickets: due.length,
    messages: deleted.length,
    files: paths.length + anonymised.files,
    contacts: anonymised.contactIds.length,
  };
  if (counts.tickets === 0 && counts.contacts === 0) return { busy: false, counts: none, tickets: [], contactIds: [] };
  await tx.execute(sql`
    insert into retention_state (id, tickets, messages, files, contacts)
    values (1, ${counts.tickets}, ${counts.messages}, ${counts.files}, ${counts.contacts})
    on conflict (id) do update set tickets = retention_state.tickets + excluded.tickets,
      messages = retention_state.messages + excluded.messages, files = retention_state.files + excluded.files,
      contacts = retention_state.contacts + excluded.contacts`);
  return { busy: false, counts, tickets: due, contactIds: anonymised.contactIds };
}

/** Take the counts of the run(s) that swept since the last flush, once, and reset them. */
export async function takeRunCounts(tx: Tx): Promise<RetentionCounts> {
  const [row] = await rowsOf<RetentionCounts>(
    tx,
    sql`delete from retention_state where id = 1 returning tickets, messages, files, contacts`,
  );
  return row ?? { tickets: 0, messages: 0, files: 0, contacts: 0 };
}

/** What a policy would remove today, over the tickets it would govern (a preview before saving). */
export async function previewPolicy(db: Db, policy: RetentionPolicy): Promise<RetentionCounts> {
  const scope =
    policy.queueId === null
      ? sql`(t.queue_id is null or not exists (select 1 from retention_policies q where q.queue_id = t.queue_id))`
      : sql`t.queue_id = ${policy.queueId}`;
  const [row] = await rowsOf<Omit<RetentionCounts, "contacts">>(
    db,
    sql`
      select count(distinct t.id)::int as tickets,
        count(m.id)::int as messages,
        count(m.media_path)::int as files
      from tickets t
      join messages m on m.ticket_id = t.id
      where ${scope}
        and t.status = 'closed'
        and coalesce(t.closed_at, t.updated_at) < now() - make_interval(days => ${policy.days})
        and not exists (select 1 from legal_holds h where h.ticket_id = t.id or h.contact_id = t.contact_id)
        and (${policy.remove} <> 'media' or m.media_path is not null)`,
  );
  const counts = { ...(row ?? { tickets: 0, messages: 0, files: 0 }), contacts: await previewContacts(db, policy, scope) };
  return policy.remove === "media" ? { ...counts, messages: 0 } : counts;
}

/** Up to `limit` queued file removals, locked for this caller (another process skips them). */
export async function lockMediaDeletions(tx: Tx, limit: number): Promise<{ id: string; path: string }[]> {
  return rowsOf<{ id: string; path: string }>(
    tx,
    sql`select id, path from media_deletions order by id limit ${limit} for update skip locked`,
  );
}

export async function forgetMediaDeletions(tx: Tx, ids: string[]): Promise<void> {
  if (ids.length) await tx.execute(sql`delete from media_deletions where id = any(${sql.param(ids)}::bigint[])`);
}

export async function listHolds(db: Db, filter: { contactId?: number; ticketId?: number }) {
  const where = and(
    filter.contactId === undefined ? undefined : eq(legalHolds.contactId, filter.contactId),
    filter.ticketId === undefined ? undefined : eq(legalHolds.ticketId, filter.ticketId),
  );
  return db.select().from(legalHolds).where(where).orderBy(asc(legalHolds.id));
}
