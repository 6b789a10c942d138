import type { BusinessSchedule } from "@zapdesk/core";
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { namedStatement, opaque, rowOf, runNamed, runNamedTogether } from "../../db/prepared.js";
import {
  closingReasons,
  contacts,
  menuNodes,
  messages,
  queueBots,
  queues,
  ticketRatings,
  tickets,
  users,
  whatsappQueues,
  whatsapps,
} from "../../db/schema.js";
import { botHeld } from "../bots/bots.repo.js";
import { consentColumns } from "../consent/consent.repo.js";
import { createdBesideTwin } from "../contacts/contact-addresses.js";
import { type InboundTally, ticketSetAfterInbound } from "../inbound/ticket-rules.js";
import { ticketTagsJson } from "../tags/tags.repo.js";
import type { JoinedTicket, TicketRow } from "../tickets/tickets.repo.js";
import { personNameOnConflict } from "./inbound-store.js";
import { type MessageRow, messageColumns, type NewMessage } from "./messages.repo.js";

/**
 * Issue 24 item 1: the batch's statements (`inbound-batch.ts`, `inbound-batch-tickets.ts`) as one
 * SQL text each whatever the batch's size: its rows travel as arrays (`unnest`), so each text is
 * rendered once per process and sent by name (`runNamed`), parsed once per pooled connection. A
 * lone message, the common case, no longer pays for building its SQL (about 1.3 ms of Node CPU a
 * message, docs/benchmarks.md). Their meaning is the set-based statements' of before.
 */

const p = (name: string) => sql.placeholder(name);
/** A list of columns as `"col", …` (a table's, for returning and selecting). */
const columnList = (columns: Record<string, { name: string }>) =>
  sql.raw(
    Object.values(columns)
      .map((c) => `"${c.name}"`)
      .join(", "),
  );

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

// The contacts, in the order given (the caller sorts them: rows locked in number order), each
// upserted as `.values(...).onConflictDoUpdate(personNameOnConflict)` did, returning the
// connection, its queues and any pending rating with them.
const upsertContacts = namedStatement(
  "inbound_batch_contacts",
  sql`insert into ${contacts} ("number", "name", "is_group")
    select c.number, c.name, false from unnest(${p("numbers")}::text[], ${p("names")}::text[]) with ordinality as c(number, name, n)
    order by c.n
    on conflict ("number") do update set "name" = ${personNameOnConflict.name}
    returning "id", "name", "number", "profile_pic_url", ${createdBesideTwin} as "twin",
      exists (select 1 from ${ticketRatings} r where r.contact_id = "contacts"."id"
        and r.whatsapp_id = ${p("whatsappId")} and r.status = 'pending') as "rating_pending",
      (select json_build_object('id', w.id, 'name', w.name, 'provider', w.provider,
        'queues', coalesce((select json_agg(json_build_object('id', q.id, 'name', q.name, 'color', q.color) order by q.id)
          from ${whatsappQueues} wq join ${queues} q on q.id = wq.queue_id where wq.whatsapp_id = w.id), '[]'::json),
        'hasMenu', (select count(*) from ${whatsappQueues} wq where wq.whatsapp_id = w.id) >= 2
          or exists (select 1 from ${menuNodes} m where m.whatsapp_id = w.id and m.parent_id is null),
        'hasBot', exists (select 1 from ${whatsappQueues} wq join ${queueBots} b on b.queue_id = wq.queue_id
          where wq.whatsapp_id = w.id))
        from ${whatsapps} w where w.id = ${p("whatsappId")}) as "connection"`,
);

export interface UpsertedContact {
  id: number;
  name: string;
  number: string;
  profilePicUrl: string;
  twin: boolean;
  ratingPending: boolean;
  connection: BatchConnection | null;
}

/** A contact as the upsert returned it, with the connection and any pending rating. */
function upsertedOf(r: Record<string, unknown>): UpsertedContact {
  return {
    id: r.id as number,
    name: r.name as string,
    number: r.number as string,
    profilePicUrl: r.profile_pic_url as string,
    twin: r.twin as boolean,
    ratingPending: r.rating_pending as boolean,
    connection: r.connection as BatchConnection | null,
  };
}

const ticketColumns = getTableColumns(tickets);
export const ticketOfRaw = rowOf(ticketColumns) as (raw: Record<string, unknown>) => TicketRow;

// Each contact's candidates locked (active, or moved within the window), and a ticket opened for
// each contact without one, its last inbound time read in the same insert. The contacts come by
// number, as the contacts' upsert just wrote them in this transaction, so that the two statements go
// in one round trip (`upsertAndFindTickets`). The contacts, the connection and the window are
// `opaque`: a lone message's one contact, a connection the statistics do not know yet (a new one)
// and a window's start they see few tickets after each made the generic plan look dearer than the
// message's own, so the statement was planned anew for every message (planning was 30–35 % of the
// database's CPU in a profile). Its plan is the same either way: the contacts' index.
const contactIdsSql = sql`(select array_agg(c.id) from ${contacts} c where c.number = any(${opaque("numbers", "text[]")}::text[]))`;
const findOrOpen = namedStatement(
  "inbound_batch_tickets",
  sql`with ids as materialized (select ${contactIdsSql} as ids),
    found as (
      select ${columnList(ticketColumns)} from ${tickets} where whatsapp_id = ${opaque("whatsappId", "int")}
        and contact_id = any((select ids from ids)::int[])
        and (status in ('pending', 'open') or updated_at >= ${opaque("since", "timestamptz")})
      for update),
    created as (
      insert into ${tickets} (contact_id, whatsapp_id, status, is_group, last_inbound_at)
      select c.id, ${p("whatsappId")}, 'pending', false,
        (select max(t.last_inbound_at) from ${tickets} t where t.contact_id = c.id and t.whatsapp_id = ${opaque("whatsappId", "int")})
      from unnest((select ids from ids)::int[]) as c(id)
      where not exists (select 1 from found f where f.contact_id = c.id)
        -- A connection deleted meanwhile: no ticket (the contacts' upsert found none, the batch goes one by one).
        and exists (select 1 from ${whatsapps} w where w.id = ${opaque("whatsappId", "int")})
      order by c.id
      on conflict (contact_id, whatsapp_id) where status in ('pending', 'open') do nothing
      returning ${columnList(ticketColumns)})
    select *, false as created, now() as "transaction_at" from found
    union all select *, true as created, now() as "transaction_at" from created`,
);

export type FoundTickets = ReturnType<typeof foundOf>;

/**
 * The contacts' candidate tickets (locked) and the tickets opened for the others, and the
 * transaction's time as the database gives it (`now()`, what the rules' events are queued with).
 */
function foundOf(rows: Record<string, unknown>[]) {
  const read = rows[0] ? new Date(rows[0].transaction_at as Date | string) : undefined;
  // A time it could not read decides nothing (rule-quiet.ts leaves the time conditions to the worker).
  const at = read && !Number.isNaN(read.getTime()) ? read : undefined;
  return { at, rows: rows.map((raw) => ({ ticket: ticketOfRaw(raw), created: raw.created === true })) };
}

/** The tickets statement alone, for contacts already written (`numbers`): candidates and new tickets. */
export async function findOrOpenTickets(tx: Db, whatsappId: number, numbers: string[], since: Date) {
  return foundOf(await runNamed<Record<string, unknown>>(tx, findOrOpen, { whatsappId, numbers, since: since.toISOString() }));
}

/**
 * The batch's contacts upserted (`sorted` by number), then their tickets found or opened, in one
 * round trip with the transaction's BEGIN (db/pipeline.ts): the tickets statement reads the contacts
 * by number, not from the upsert's answer. The caller's checks of the contacts (a menu, a bot, a
 * pending rating, a twin) come after both: a batch they refuse rolls back, its tickets with it.
 */
export async function upsertAndFindTickets(
  tx: Db,
  whatsappId: number,
  sorted: { number: string; name: string }[],
  since: Date,
): Promise<{ contacts: UpsertedContact[]; found: FoundTickets }> {
  const numbers = sorted.map((c) => c.number);
  const [upserted = [], found = []] = await runNamedTogether(tx, [
    [upsertContacts, { numbers, names: sorted.map((c) => c.name), whatsappId }],
    [findOrOpen, { whatsappId, numbers, since: since.toISOString() }],
  ]);
  return { contacts: upserted.map(upsertedOf), found: foundOf(found) };
}

// The messages' columns the batch writes, in this order (`messageValues` gives them).
const written = [
  ["wid", "text"],
  ["whatsappId", "int"],
  ["ticketId", "int"],
  ["contactId", "int"],
  ["body", "text"],
  ["fromMe", "bool"],
  ["read", "bool"],
  ["ack", "int"],
  ["mediaType", "text"],
  ["mediaPath", "text"],
  ["mediaName", "text"],
  ["mediaMime", "text"],
  ["mediaError", "text"],
  ["quotedMsgId", "int8"],
  ["raw", "jsonb"],
  ["createdAt", "timestamptz"],
] as const satisfies readonly (readonly [keyof NewMessage & keyof typeof messages.$inferSelect, string])[];

/** The message columns the batch writes: every key of `messageValues` (inbound-batch-sql.test.ts checks it). */
export const BATCH_MESSAGE_COLUMNS: readonly string[] = written.map(([key]) => key);

// The inserted rows come back without `raw`: the batch wrote it, and a channel's payload (a Baileys
// message with its thumbnail runs to kilobytes) would otherwise be turned into JSON text by the
// database and parsed again by Node for every message, for rows whose `raw` nothing reads (the
// presenter reads it of a bot's messages only; media is fetched from the channel's own message).
const { raw: _raw, ...returnedColumns } = messageColumns;

// `quiet` hands the messages' rules trigger the rules' stamp when no rule can fire on these messages
// (automation-rules/rule-quiet.ts, migration 0044), set within this statement: the trigger runs at its
// end and clears it. "" hands nothing.
const insertMessages = namedStatement(
  "inbound_batch_messages",
  sql`with quiet as (select set_config('zapdesk.rules_quiet', ${p("quiet")}::text, true))
    insert into ${messages} (${sql.raw(written.map(([key]) => `"${messages[key].name}"`).join(", "))})
    select ${sql.raw(written.map(([key], i) => (key === "raw" ? `m.c${i}::jsonb` : `m.c${i}`)).join(", "))}
    from unnest(${sql.join(
      written.map(([key, type]) => sql`${p(key)}::${sql.raw(type === "jsonb" ? "text" : type)}[]`),
      sql`, `,
    )}) with ordinality as m(${sql.raw(written.map((_, i) => `c${i}`).join(", "))}, n) cross join quiet
    order by m.n
    on conflict ("whatsapp_id", "wid") do nothing
    returning ${columnList(returnedColumns)}`,
);
const messageOfRaw = rowOf(returnedColumns) as (raw: Record<string, unknown>) => Omit<MessageRow, "raw">;

/** The insert's values: a column's values as an array each. */
function insertValues(rows: NewMessage[], quiet: string): Record<string, unknown> {
  const values: Record<string, unknown> = { quiet };
  for (const [key, type] of written) {
    const column = messages[key];
    values[key] = rows.map((row) => {
      const value = row[key];
      if (value === null || value === undefined) return null;
      // As drizzle writes them: a jsonb value as its JSON text, a timestamp in ISO form.
      return type === "jsonb" || type === "timestamptz" ? column.mapToDriverValue(value) : value;
    });
  }
  return values;
}

/**
 * The rows the insert returned, in order; a message stored before (its `whatsapp_id`, `wid`) is left
 * out. Each with the `raw` the batch wrote, not read back (see `returnedColumns`; a batch's wids are
 * distinct: storeBatch dedupes them).
 */
function insertedOf(rows: NewMessage[], returned: Record<string, unknown>[]): MessageRow[] {
  const rawOf = new Map(rows.map((row) => [row.wid, row.raw ?? null]));
  return returned.map((raw) => {
    const message = messageOfRaw(raw);
    return Object.assign(message, { raw: rawOf.get(message.wid) ?? null });
  });
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
 * The queue `touch.routed` below leaves a ticket in (its `queue_id` assignment, for the rules the
 * batch decides before the update runs, rule-quiet.ts): an unassigned ticket without a queue moves
 * to the connection's only queue. `onlyQueueId` undefined: `touch.plain`, the queue stays.
 */
export function queueAfterTouch(ticket: Pick<TicketRow, "queueId" | "userId">, onlyQueueId: number | undefined): number | null {
  return ticket.queueId === null && ticket.userId === null ? (onlyQueueId ?? null) : ticket.queueId;
}

// Preview, unread count and last inbound time of each ticket from its tally; `routed` also moves
// an unassigned ticket without a queue to the connection's only queue (`queueAfterTouch`). The
// tallies are `opaque` for the reason the tickets statement's ids are: a lone message's one row
// made the generic plan's guess of ten look ten times dearer, and it was never kept.
const touchSql = (routed: boolean) => {
  const set = ticketSetAfterInbound({ preview: sql`v.preview`, unread: sql`v.unread`, latest: sql`v.latest` });
  const assignments: SQL[] = [
    sql`"last_message" = ${set.lastMessage as unknown as SQL}`,
    sql`"unread_messages" = ${set.unreadMessages as unknown as SQL}`,
    sql`"last_inbound_at" = ${set.lastInboundAt as unknown as SQL}`,
    sql`"updated_at" = ${p("now")}::timestamptz`,
  ];
  if (routed) {
    assignments.push(
      sql`"queue_id" = case when "tickets"."queue_id" is null and "tickets"."user_id" is null then ${p("queueId")}::int else "tickets"."queue_id" end`,
    );
  }
  const consent = consentColumns(p("whatsappId"));
  return namedStatement(
    routed ? "inbound_batch_touch_routed" : "inbound_batch_touch",
    sql`update ${tickets} set ${sql.join(assignments, sql`, `)}
      from unnest(${opaque("ids", "int[]")}, ${opaque("previews", "text[]")}, ${opaque("unreads", "int[]")},
        ${opaque("latests", "timestamptz[]")})
        as v(id, preview, unread, latest)
      where "tickets"."id" = v.id
      returning ${sql.raw(
        Object.values(ticketColumns)
          .map((c) => `"tickets"."${c.name}"`)
          .join(", "),
      )},
        json_build_object(
          'tags', ${ticketTagsJson(sql.raw('"tickets"."id"'))},
          'queue', (select json_build_object('id', q.id, 'name', q.name, 'color', q.color, 'schedule', q.schedule)
            from ${queues} q where q.id = "tickets"."queue_id"),
          'user', (select json_build_object('id', u.id, 'name', u.name) from ${users} u where u.id = "tickets"."user_id"),
          'closingReason', (select json_build_object('id', r.id, 'name', r.name, 'archived', r.archived)
            from ${closingReasons} r where r.id = "tickets"."closing_reason_id"),
          'botHeld', ${botHeld}) as "extra",
        ${consent.consentWords} as "consent_words", ${consent.consentOptedOut} as "consent_opted_out",
        ${consent.consentConfigIds} as "consent_config_ids"`,
  );
};
const touch = { plain: touchSql(false), routed: touchSql(true) };

export type TouchedTicket = TicketRow & {
  extra: TicketExtra;
  consentWords: string | null;
  consentOptedOut: boolean | null;
  consentConfigIds: number[];
};

/**
 * The batch's messages inserted and then each ticket's preview, unread count
 * and last inbound time updated after its messages (`per`, by ticket id), in one round trip
 * (db/pipeline.ts, issue 24): the update does not wait on the insert's answer. The insert's
 * statement triggers run at its end, before the update, as when they went one by one. A message
 * stored before is left out of `inserted`, as the insert alone leaves it: the caller then rolls the
 * transaction back, the update with it. `quiet`: the rules' stamp when no rule can fire on the
 * received ones (rule-quiet.ts), else "".
 */
export async function insertAndTouchBatch(
  tx: Db,
  rows: NewMessage[],
  quiet: string,
  whatsappId: number,
  per: Map<number, InboundTally>,
  onlyQueueId: number | undefined,
): Promise<{ inserted: MessageRow[]; touched: TouchedTicket[] }> {
  const tallies = [...per.values()];
  const [inserted = [], touched = []] = await runNamedTogether(tx, [
    [insertMessages, insertValues(rows, quiet)],
    [
      onlyQueueId === undefined ? touch.plain : touch.routed,
      {
        ids: [...per.keys()],
        previews: tallies.map((t) => t.preview),
        unreads: tallies.map((t) => t.unread),
        latests: tallies.map((t) => t.latest?.toISOString() ?? null),
        now: new Date().toISOString(),
        whatsappId,
        ...(onlyQueueId === undefined ? {} : { queueId: onlyQueueId }),
      },
    ],
  ]);
  return {
    inserted: insertedOf(rows, inserted),
    touched: touched.map((raw) => ({
      ...ticketOfRaw(raw),
      extra: raw.extra as TicketExtra,
      consentWords: raw.consent_words as string | null,
      consentOptedOut: raw.consent_opted_out as boolean | null,
      consentConfigIds: raw.consent_config_ids as number[],
    })),
  };
}
