import type { RetentionPolicy } from "@zapdesk/core";
import { eq, type SQL, sql } from "drizzle-orm";
import { rowsOf } from "../../backup/snapshot.js";
import type { Db, Tx } from "../../db/client.js";
import { contacts } from "../../db/schema.js";
import { anonymiseContactRows } from "../contact-data/anonymise.repo.js";
import { queueFileRemovals } from "../contact-data/erase.repo.js";

/** Contacts one batch of the sweep anonymises. */
export const SWEEP_BATCH_CONTACTS = 50;

/**
 * Nothing keeps the contact (`c`) whatever its tickets' age: no legal hold on it or on one of its
 * tickets, no scheduled message still to be sent, no CSAT question still waiting for its answer, and
 * no message it wrote in a group (the group's conversation names its author; the group's own policy
 * removes it first). Open and pending tickets are excluded by the callers. Separate `not exists`
 * (not one `or`): PostgreSQL runs each as one anti-join for the whole batch.
 */
const unreferenced = sql`
  not exists (select 1 from legal_holds h where h.contact_id = c.id)
  and not exists (select 1 from legal_holds h join tickets ht on ht.id = h.ticket_id where ht.contact_id = c.id)
  and not exists (select 1 from scheduled_messages s where s.contact_id = c.id and s.status = 'scheduled')
  and not exists (select 1 from ticket_ratings r where r.contact_id = c.id and r.status = 'pending')
  and not exists (select 1 from tickets g join messages m on m.ticket_id = g.id where g.is_group and m.contact_id = c.id)`;

/** The policy that governs `t` (its queue's own, else the default), as in retention.repo's sweep. */
const policyOfTicket = sql`left join lateral (
    select r.enabled, r.days, r.remove from retention_policies r
    where r.queue_id = t.queue_id or r.queue_id is null
    order by r.queue_id nulls last
    limit 1
  ) p on true`;

const dueForAnonymising = (days: SQL) =>
  sql`t.status = 'closed' and coalesce(t.closed_at, t.updated_at) < now() - make_interval(days => ${days})`;

const anonymisedBy = (days: SQL) => sql`coalesce(p.enabled, false) and p.remove = 'anonymise' and ${dueForAnonymising(days)}`;

/**
 * Up to a batch of contacts whose every ticket is closed and due under an `anonymise` policy, whose
 * conversations the sweep already removed, and that nothing else refers to; locked for the batch
 * (one being changed elsewhere, or getting a ticket now, is skipped until the next batch).
 */
async function dueContacts(tx: Tx): Promise<number[]> {
  const [policy] = await rowsOf<{ x: number }>(
    tx,
    sql`select 1 as x from retention_policies where enabled and remove = 'anonymise' limit 1`,
  );
  if (!policy) return [];
  const due = await rowsOf<{ id: number }>(
    tx,
    sql`
      select c.id from contacts c
      where c.id in (select t.contact_id from tickets t ${policyOfTicket} where ${anonymisedBy(sql`p.days`)})
        and c.anonymised_at is null and not c.is_group
        and not exists (
          select 1 from tickets t ${policyOfTicket}
          where t.contact_id = c.id
            and not (${anonymisedBy(sql`p.days`)}))
        and not exists (select 1 from tickets mt join messages m on m.ticket_id = mt.id where mt.contact_id = c.id)
        and ${unreferenced}
      order by c.id
      limit ${SWEEP_BATCH_CONTACTS}
      for update of c skip locked`,
  );
  return due.map((d) => d.id);
}

/** One batch's anonymisations in the sweep's transaction: the contacts, and the files it queued. */
export async function anonymiseBatch(tx: Tx): Promise<{ contactIds: number[]; files: number }> {
  const ids = await dueContacts(tx);
  let files = 0;
  for (const id of ids) {
    const [contact] = await tx.select().from(contacts).where(eq(contacts.id, id));
    const ticketIds = (await rowsOf<{ id: number }>(tx, sql`select id from tickets where contact_id = ${id}`)).map((t) => t.id);
    const rows = await anonymiseContactRows(tx, contact!, ticketIds);
    files += (await queueFileRemovals(tx, rows.mediaPaths)).length;
  }
  return { contactIds: ids, files };
}

/**
 * The contacts a policy would anonymise today: those with a ticket in its scope, every ticket in
 * its scope past its days and every other one due under the policy that governs it now.
 */
export async function previewContacts(db: Db, policy: RetentionPolicy, scope: SQL): Promise<number> {
  if (policy.remove !== "anonymise") return 0;
  const [row] = await rowsOf<{ n: number }>(
    db,
    sql`
      select count(*)::int as n from contacts c
      where c.anonymised_at is null and not c.is_group
        and exists (select 1 from tickets t where t.contact_id = c.id and ${scope})
        and not exists (
          select 1 from tickets t ${policyOfTicket}
          where t.contact_id = c.id and not (case when ${scope} then ${dueForAnonymising(sql`${policy.days}`)}
            else ${anonymisedBy(sql`p.days`)} end))
        and ${unreferenced}`,
  );
  return row?.n ?? 0;
}
