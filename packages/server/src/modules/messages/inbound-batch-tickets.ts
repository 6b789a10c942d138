import type { BusinessSchedule } from "@zapdesk/core";
import { getTableColumns, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { closingReasons, queues, tags, tickets, ticketTags, users } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { botHeld } from "../bots/bots.repo.js";
import { consentColumns } from "../consent/consent.repo.js";
import {
  type InboundTally,
  pickTicket,
  REOPENED,
  reopenWindowStart,
  tallyInbound,
  ticketSetAfterInbound,
} from "../inbound/ticket-rules.js";
import type { JoinedTicket, TicketRow } from "../tickets/tickets.repo.js";
import type { Ingest } from "./inbound-store.js";

/**
 * The batch's ticket statements (`inbound-batch.ts`): find or open each contact's ticket, then
 * update them after the messages, returning what the events, business hours and consent read.
 */

type ContactLite = JoinedTicket["contact"];

/** The connection as the batch reads it, inside its contacts upsert. */
export interface BatchConnection {
  id: number;
  name: string;
  provider: string;
  queues: { id: number; name: string; color: string }[];
  /** Issue 23 §3: its customers get a menu (a tree, or two or more queues): one message at a time. */
  hasMenu: boolean;
  /** Issue 23 §4: a queue of the connection hands its conversations to a bot: one message at a time. */
  hasBot: boolean;
}

/**
 * Each contact's ticket, as the one-message path finds it: the active one, else the latest moved
 * within the window (reopened pending and unassigned), else a new one. `before` holds the tickets
 * as they were.
 */
export async function findOrCreateTickets(
  tx: Db,
  whatsappId: number,
  contactRows: ContactLite[],
  clock: Clock,
  windowSeconds: number,
) {
  const since = reopenWindowStart(clock.now(), windowSeconds, false);
  const ids = contactRows.map((c) => c.id);
  // Issue 24: one statement finds (and locks) the candidates and opens a ticket for each contact
  // without one, its last inbound time read in the same insert. A contact with a candidate gets
  // none, as pickTicket would pick it: active, else moved within the window (reopened below).
  const found = await tx.execute(sql`with found as (
      select * from ${tickets} where whatsapp_id = ${whatsappId} and contact_id = any(${sql.param(ids)}::int[])
        and (status in ('pending', 'open') or updated_at >= ${since.toISOString()}::timestamptz)
      for update),
    created as (
      insert into ${tickets} (contact_id, whatsapp_id, status, is_group, last_inbound_at)
      select c.id, ${whatsappId}, 'pending', false,
        (select max(t.last_inbound_at) from ${tickets} t where t.contact_id = c.id and t.whatsapp_id = ${whatsappId})
      from unnest(${sql.param(ids)}::int[]) as c(id)
      where not exists (select 1 from found f where f.contact_id = c.id)
      order by c.id
      on conflict (contact_id, whatsapp_id) where status in ('pending', 'open') do nothing
      returning *)
    select *, false as created from found union all select *, true as created from created`);
  const rows = (found as unknown as { rows: Record<string, unknown>[] }).rows.map((raw) => ({
    ticket: ticketOfRaw(raw),
    created: raw.created === true,
  }));
  const candidates = rows.filter((r) => !r.created).map((r) => r.ticket);
  const before = new Map<number, TicketRow>();
  const current = new Map<number, TicketRow>();
  const reopen: number[] = [];
  let missing = 0;
  for (const contactId of ids) {
    const picked = pickTicket(
      candidates.filter((t) => t.contactId === contactId),
      since,
    );
    if (picked) {
      before.set(contactId, picked.ticket);
      current.set(contactId, picked.ticket);
      if (picked.reopen) reopen.push(picked.ticket.id);
    } else missing += 1;
  }
  const created = rows.filter((r) => r.created).map((r) => r.ticket);
  // Another process opened one of them meanwhile: the caller rolls back, the one-message path joins it.
  if (created.length < missing) return { before, current, openedConcurrently: true };
  for (const t of created) current.set(t.contactId, t);
  if (reopen.length > 0) {
    const reopened = await tx
      .update(tickets)
      .set({ ...REOPENED, updatedAt: new Date() })
      .where(inArray(tickets.id, reopen))
      .returning();
    for (const t of reopened) current.set(t.contactId, t);
  }
  return { before, current, openedConcurrently: false };
}

const ticketColumns = Object.entries(getTableColumns(tickets));
/** A `tickets` row as the driver returned it (snake_case), as drizzle maps it. */
function ticketOfRaw(raw: Record<string, unknown>): TicketRow {
  return Object.fromEntries(
    ticketColumns.map(([key, column]) => {
      const value = raw[column.name];
      return [key, value === null || value === undefined ? null : column.mapFromDriverValue(value)];
    }),
  ) as TicketRow;
}

/** What the events present of a ticket besides its row, and its queue's business hours. */
export interface TicketExtra {
  tags: JoinedTicket["tags"];
  queue: { id: number; name: string; color: string; schedule: BusinessSchedule | null } | null;
  user: { id: number; name: string } | null;
  closingReason: { id: number; name: string; archived: boolean } | null;
  /** Issue 23 §4: a bot holds the ticket (a queue of another connection's, or a bot added meanwhile). */
  botHeld: boolean;
}

/**
 * Preview (the ticket's last message of the batch), unread count and last inbound time, in one
 * statement that also returns what the events, business hours and consent read of each ticket.
 */
export async function touchTickets(
  tx: Db,
  whatsappId: number,
  fresh: Ingest[],
  inserted: { wid: string | null; ticketId: number }[],
  onlyQueueId: number | undefined,
) {
  const ticketOfWid = new Map(inserted.map((m) => [m.wid, m.ticketId]));
  const itemsOf = new Map<number, Ingest[]>();
  for (const item of fresh) {
    const id = ticketOfWid.get(item.wid) as number;
    itemsOf.set(id, [...(itemsOf.get(id) ?? []), item]);
  }
  const per = new Map([...itemsOf].map(([id, items]) => [id, tallyInbound(items)]));
  const ids = [...per.keys()];
  const caseOf = (value: (tally: InboundTally) => SQL) =>
    sql`case ${tickets.id} ${sql.join(
      ids.map((id) => sql`when ${id} then ${value(per.get(id) as InboundTally)}`),
      sql` `,
    )} end`;
  return tx
    .update(tickets)
    .set({
      ...ticketSetAfterInbound({
        preview: caseOf((e) => sql`${e.preview}::text`),
        unread: caseOf((e) => sql`${e.unread}::int`),
        latest: caseOf((e) => sql`${e.latest?.toISOString() ?? null}::timestamptz`),
      }),
      updatedAt: new Date(),
      // A connection with a single queue routes every unassigned ticket to it (no menu).
      ...(onlyQueueId !== undefined
        ? {
            queueId:
              sql`case when "tickets"."queue_id" is null and "tickets"."user_id" is null then ${onlyQueueId}::int else "tickets"."queue_id" end` as unknown as number,
          }
        : {}),
    })
    .where(inArray(tickets.id, ids))
    .returning({
      ...getTableColumns(tickets),
      extra: sql<TicketExtra>`json_build_object(
        'tags', coalesce((select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color)
          order by lower(tg.name), tg.id) from ${ticketTags} tt join ${tags} tg on tg.id = tt.tag_id
          where tt.ticket_id = "tickets"."id"), '[]'::json),
        'queue', (select json_build_object('id', q.id, 'name', q.name, 'color', q.color, 'schedule', q.schedule)
          from ${queues} q where q.id = "tickets"."queue_id"),
        'user', (select json_build_object('id', u.id, 'name', u.name) from ${users} u where u.id = "tickets"."user_id"),
        'closingReason', (select json_build_object('id', r.id, 'name', r.name, 'archived', r.archived)
          from ${closingReasons} r where r.id = "tickets"."closing_reason_id"),
        'botHeld', ${botHeld})`,
      ...consentColumns(whatsappId),
    });
}

/** The tickets as the realtime events present them, from the rows the ticket update returned. */
export function joinTickets(
  rows: (TicketRow & { extra: TicketExtra })[],
  connection: BatchConnection,
  contactRows: ContactLite[],
): Map<number, JoinedTicket> {
  const whatsapp = { id: connection.id, name: connection.name, provider: connection.provider };
  return new Map(
    rows.map(({ extra, ...ticket }) => {
      const {
        consentWords: _w,
        consentOptedOut: _o,
        consentConfigIds: _c,
        ...row
      } = ticket as typeof ticket & Record<"consentWords" | "consentOptedOut" | "consentConfigIds", unknown>;
      const queue = extra.queue && { id: extra.queue.id, name: extra.queue.name, color: extra.queue.color };
      return [
        row.id,
        {
          ticket: row,
          contact: contactRows.find((c) => c.id === row.contactId) as ContactLite,
          queue,
          user: extra.user,
          whatsapp,
          tags: extra.tags,
          closingReason: extra.closingReason,
          botHeld: extra.botHeld,
        },
      ];
    }),
  );
}
