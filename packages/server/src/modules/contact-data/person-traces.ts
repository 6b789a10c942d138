import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import type { contacts } from "../../db/schema.js";

type ContactRow = typeof contacts.$inferSelect;

/**
 * What names a person outside their own rows, removed alike by an erasure (issue 22 §2) and by a
 * retention policy that anonymises the contact (§1): webhook deliveries and import mappings about
 * them, their reactions in groups, the LID ↔ number mapping, and the channels' handled events that
 * carry their number. Runs first in the caller's transaction, while the rows these name still exist.
 */
export interface PersonTraces {
  webhookDeliveries: number;
  importMappings: number;
  lidMappings: number;
  inboundEvents: number;
}

export async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

export const asInt = (value: unknown) => Number(value ?? 0);

/** The rows that are the contact's: its tickets' messages, and what they wrote in groups. */
export const ownMessages = (contactId: number, ticketIds: number[]) =>
  sql`(select id from messages where contact_id = ${contactId} or ticket_id = any(${sql.param(ticketIds)}::int[]))`;

/** Strings that name this person in a channel's raw payloads (numbers and aliases; never short ones). */
export function needlesOf(contact: ContactRow): string[] {
  const forms = [contact.number, contact.lid?.split("@")[0], contact.bsuid].filter((v): v is string => !!v && v.length >= 6);
  return [...new Set(forms)];
}

export async function removePersonTraces(tx: Db, contact: ContactRow, ticketIds: number[]): Promise<PersonTraces> {
  const contactId = contact.id;
  const own = ownMessages(contactId, ticketIds);
  const count = async (query: SQL) => asInt((await rowsOf<{ n: unknown }>(tx, query))[0]?.n);

  const webhookDeliveries = await count(sql`
    with d as (delete from webhook_deliveries where
      (event like 'message.%' and entity_id in ${own})
      or (event like 'ticket.%' and entity_id = any(${sql.param(ticketIds)}::int[]))
      or (event like 'contact.%' and entity_id = ${contactId})
      returning 1)
    select count(*) as n from d`);

  const importMappings = await count(sql`
    with d as (delete from import_map where
      (entity = 'contact' and target_id = ${contactId})
      or (entity = 'contactField' and target_id in (select id from contact_extra_info where contact_id = ${contactId}))
      or (entity in ('ticket', 'session', 'rating') and target_id = any(${sql.param(ticketIds)}::int[]))
      or (entity = 'schedule' and target_id in
        (select id from scheduled_messages where contact_id = ${contactId} or ticket_id = any(${sql.param(ticketIds)}::int[])))
      or (entity in ('message', 'note') and target_id in ${own})
      returning 1)
    select count(*) as n from d`);

  // Issue 23 §1: the automation rules' log quotes the message that fired a rule (200 characters).
  await tx.execute(sql`delete from rule_runs where ticket_id = any(${sql.param(ticketIds)}::int[])`);

  // Their reactions on others' messages in groups ("by" is the participant's number or LID).
  const by = [contact.number, contact.lid].filter((v): v is string => !!v);
  await tx.execute(sql`
    update messages set reactions = coalesce(
      (select jsonb_agg(r) from jsonb_array_elements(reactions) r where not (r ->> 'by' = any(${sql.param(by)}::text[]))), '[]'::jsonb)
    where ticket_id in (select id from tickets where is_group)
      and exists (select 1 from jsonb_array_elements(reactions) r where r ->> 'by' = any(${sql.param(by)}::text[]))`);

  const aliases = [contact.lid, contact.number].filter((v): v is string => !!v);
  const lidMappings = await count(sql`
    with d as (delete from lid_mappings where lid = any(${sql.param(aliases)}::text[]) or pn = ${contact.number} returning 1)
    select count(*) as n from d`);

  // The channels' durable log keeps handled events a day; those naming this person go now. An event
  // still pending is a message on its way in: handled, it makes a new contact.
  const needles = needlesOf(contact);
  const inboundEvents = needles.length
    ? await count(sql`
        with d as (delete from inbound_events where status <> 'pending'
          and exists (select 1 from unnest(${sql.param(needles)}::text[]) n where strpos(payload::text, n) > 0)
          returning 1)
        select count(*) as n from d`)
    : 0;

  return { webhookDeliveries, importMappings, lidMappings, inboundEvents };
}
