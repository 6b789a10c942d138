import type { BusinessSchedule } from "@zapdesk/core";
import { and, eq, getTableColumns, gte, inArray, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import {
  closingReasons,
  contacts,
  messages,
  queues,
  tags,
  ticketRatings,
  tickets,
  ticketTags,
  users,
  whatsappQueues,
  whatsapps,
} from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { withoutNul } from "../../lib/pg-safe.js";
import type { TicketScope } from "../../realtime/publisher.js";
import { consentColumns, inboundStateOf } from "../consent/consent.repo.js";
import { applyConsent } from "../consent/consent-inbound.js";
import { createdBesideTwin } from "../contacts/contact-addresses.js";
import {
  connectionBatches,
  type InboundTally,
  movedScope,
  pickTicket,
  REOPENED,
  reopenWindowStart,
  scopeOfTicket,
  tallyInbound,
  ticketSetAfterInbound,
} from "../inbound/ticket-rules.js";
import type { JoinedTicket, TicketRow } from "../tickets/tickets.repo.js";
import { replacesPlaceholder } from "./inbound-placeholder.js";
import { consentEntry, type Ingest, messageValues, personNameOnConflict } from "./inbound-store.js";
import { type JoinedMessage, messageColumns } from "./messages.repo.js";
import { sendOutOfHours } from "./out-of-hours.js";

export { isBatchable } from "../inbound/ticket-rules.js";

export interface BatchStored {
  ticket: JoinedTicket;
  message: JoinedMessage;
  /** The ticket changed hands (reopened unassigned, or routed to the only queue); on its first message only. */
  moved?: { from: TicketScope; to: TicketScope };
  /** The out-of-hours message queued for the ticket by this batch (business hours), on its first message only. */
  notice?: number;
  /** Issue 22 §3: the consent question queued for the ticket by this batch, on its first message only. */
  consentPrompt?: number;
  /** Issue 22 §3: the contact's consent records changed (opt-out, opt-in, an answer), on its first message only. */
  consentChanged?: boolean;
}

/** Thrown inside the transaction (everything rolled back) when the batch must go one message at a time. */
export class NotBatchable extends Error {}
/** A connection with several queues: its customers get the menu, one message at a time. */
export class HasQueueMenu extends NotBatchable {
  constructor() {
    super("queue menu");
  }
}

type ContactLite = JoinedTicket["contact"];
const replaces = (stored: { mediaType: string } | undefined, item: Ingest) => !!stored && replacesPlaceholder(stored, item);

/** Thrown inside the transaction when a message of the batch was stored before: the batch is written again, checking first. */
class AlreadyStored extends Error {}

/** The connection as the batch reads it, inside its contacts upsert. */
interface BatchConnection {
  id: number;
  name: string;
  provider: string;
  queues: { id: number; name: string; color: string }[];
}

/**
 * Store a batch in one transaction with a fixed number of statements whatever its size: contacts
 * upserted in one (with the connection, its queues and any pending rating, issue 24), tickets found
 * in one (then reopened and created in one each when needed), messages inserted in one (a message
 * stored before makes the batch run again with a duplicates check first: redeliveries are rare),
 * tickets' preview/unread/last inbound updated in one (returning what the events and the consent
 * and business-hours steps read). The same outcome as storing the items one by one in order;
 * undefined for an item already stored (or repeated in the batch).
 */
export async function storeBatch(
  db: Db,
  clock: Clock,
  whatsappId: number,
  input: Ingest[],
  windowSeconds: number,
): Promise<(BatchStored | undefined)[]> {
  const items = input.map((item) => withoutNul(item));
  try {
    return await writeBatch(db, clock, whatsappId, items, windowSeconds, false);
  } catch (error) {
    if (!(error instanceof AlreadyStored)) throw error;
    return writeBatch(db, clock, whatsappId, items, windowSeconds, true);
  }
}

async function writeBatch(
  db: Db,
  clock: Clock,
  whatsappId: number,
  items: Ingest[],
  windowSeconds: number,
  checkFirst: boolean,
): Promise<(BatchStored | undefined)[]> {
  return db.transaction(async (tx) => {
    const existing = checkFirst
      ? await tx
          .select({ wid: messages.wid, mediaType: messages.mediaType })
          .from(messages)
          .where(and(eq(messages.whatsappId, whatsappId), inArray(messages.wid, [...new Set(items.map((i) => i.wid))])))
      : [];
    // The real copy of a placeholder replaces it, as the one-message path does (inbound-placeholder.ts).
    const stored = new Map(existing.map((r) => [r.wid, r]));
    if (items.some((item) => replaces(stored.get(item.wid), item))) throw new NotBatchable("replaces a placeholder");
    const seen = new Set(existing.map((r) => r.wid));
    const fresh = items.filter((item) => !seen.has(item.wid) && seen.add(item.wid));
    const results: (BatchStored | undefined)[] = items.map(() => undefined);
    if (fresh.length === 0) return results;

    // The first name WhatsApp gives wins, as it would message by message; rows locked in number order.
    const names = new Map<string, string>();
    for (const item of fresh) {
      const name = item.sender?.name || item.chat;
      if ((names.get(item.chat) ?? item.chat) === item.chat) names.set(item.chat, name);
    }
    const upserted = await tx
      .insert(contacts)
      .values([...names.keys()].sort().map((number) => ({ number, name: names.get(number) ?? number, isGroup: false })))
      .onConflictDoUpdate({ target: contacts.number, set: personNameOnConflict })
      .returning({
        id: contacts.id,
        name: contacts.name,
        number: contacts.number,
        profilePicUrl: contacts.profilePicUrl,
        twin: createdBesideTwin,
        // Issue 11 CSAT: an answer to a satisfaction question is read by the one-message path.
        ratingPending: sql<boolean>`exists (select 1 from ${ticketRatings} r where r.contact_id = "contacts"."id"
          and r.whatsapp_id = ${whatsappId} and r.status = 'pending')`,
        connection: sql<BatchConnection | null>`(select json_build_object('id', w.id, 'name', w.name, 'provider', w.provider,
          'queues', coalesce((select json_agg(json_build_object('id', q.id, 'name', q.name, 'color', q.color) order by q.id)
            from ${whatsappQueues} wq join ${queues} q on q.id = wq.queue_id where wq.whatsapp_id = w.id), '[]'::json))
          from ${whatsapps} w where w.id = ${whatsappId})`,
      });
    // The queue menu and greetings are per-ticket conversations: the one-message path runs them.
    // Decided before the batch (inbound.ts); a connection given a second queue since then falls back here.
    const connection = upserted[0]?.connection;
    if (!connection || !connectionBatches(connection.queues.length)) throw new HasQueueMenu();
    if (upserted.some((c) => c.ratingPending)) throw new NotBatchable("rating pending");
    // Issue 18: a new contact whose ninth-digit twin exists is one person: the identity module
    // (one-message path) moves the twin to this form. Checked inside the upsert, no extra statement.
    if (upserted.some((c) => c.twin)) throw new NotBatchable("ninth-digit twin");
    const contactRows: ContactLite[] = upserted.map(({ id, name, number, profilePicUrl }) => ({
      id,
      name,
      number,
      profilePicUrl,
    }));
    const contactOf = new Map<string, ContactLite>(contactRows.map((c) => [c.number, c]));

    const { before, current } = await findOrCreateTickets(tx, whatsappId, contactRows, clock, windowSeconds);

    const inserted = await tx
      .insert(messages)
      .values(
        fresh.map((item) => {
          const contact = contactOf.get(item.chat) as ContactLite;
          return messageValues(whatsappId, (current.get(contact.id) as TicketRow).id, contact.id, item);
        }),
      )
      .onConflictDoNothing({ target: [messages.whatsappId, messages.wid] })
      .returning(messageColumns);
    // Stored before (a redelivery): once more, checking first. A copy stored by someone else since
    // the check: the one-message path treats it as the duplicate it is.
    if (inserted.length < fresh.length) throw checkFirst ? new NotBatchable("stored concurrently") : new AlreadyStored();

    const touched = await touchTickets(tx, whatsappId, fresh, inserted, connection.queues[0]?.id);
    const updated: TicketRow[] = touched.map(
      ({ extra: _extra, consentWords: _w, consentOptedOut: _o, consentConfigIds: _c, ...t }) => t,
    );
    const consentState = await inboundStateOf(tx, {
      words: touched[0]?.consentWords ?? null,
      optedOut: touched.flatMap((t) => (t.consentOptedOut ? [t.contactId] : [])),
      configIds: [...new Set(touched.flatMap((t) => t.consentConfigIds))],
    });
    // Issue 22 §3: opt-out words, consent answers and questions, the same step as one message's.
    const insertedByWid = new Map(inserted.map((m) => [m.wid, m]));
    const ticketById = new Map(updated.map((t) => [t.id, t]));
    const consent = await applyConsent(
      tx,
      clock,
      whatsappId,
      fresh.map((item) => {
        const message = insertedByWid.get(item.wid) as (typeof inserted)[number];
        const contact = contactOf.get(item.chat) as ContactLite;
        return consentEntry(ticketById.get(message.ticketId) as TicketRow, contact, message.id, item);
      }),
      { state: consentState },
    );
    const consentChanged = new Set(consent.contactIds);
    // Business hours, after the batch as after one message: a closed queue's message, once a day per ticket.
    const notices = await sendOutOfHours(
      tx,
      clock,
      updated.map((ticket) => ({ ticket, name: contactRows.find((c) => c.id === ticket.contactId)?.name ?? "" })),
      new Map(touched.flatMap((t) => (t.extra.queue ? [[t.extra.queue.id, t.extra.queue.schedule] as const] : []))),
    );
    const joined = joinTickets(touched, connection, contactRows);
    const byWid = new Map(inserted.map((m) => [m.wid, m]));
    const announcedMove = new Set<number>();
    items.forEach((item, i) => {
      const message = byWid.get(item.wid);
      // Stored before, or a repeat of an earlier item of this batch.
      if (!message) return;
      byWid.delete(item.wid);
      const ticket = joined.get(message.ticketId) as JoinedTicket;
      const was = before.get(ticket.ticket.contactId);
      const moved = announcedMove.has(ticket.ticket.id)
        ? undefined
        : movedScope(was && scopeOfTicket(was), scopeOfTicket(ticket.ticket));
      const notice = notices.get(ticket.ticket.id);
      notices.delete(ticket.ticket.id);
      const consentPrompt = consent.prompts.get(ticket.ticket.id);
      consent.prompts.delete(ticket.ticket.id);
      const changedConsent = consentChanged.delete(ticket.ticket.contactId);
      announcedMove.add(ticket.ticket.id);
      results[i] = {
        ticket,
        message: { message, contact: ticket.contact, user: null, quoted: null, quotedContact: null },
        moved,
        notice,
        ...(consentPrompt !== undefined ? { consentPrompt } : {}),
        ...(changedConsent ? { consentChanged: true } : {}),
      };
    });
    return results;
  });
}

/**
 * Each contact's ticket, as the one-message path finds it: the active one, else the latest moved
 * within the window (reopened pending and unassigned), else a new one. `before` holds the tickets
 * as they were.
 */
async function findOrCreateTickets(tx: Db, whatsappId: number, contactRows: ContactLite[], clock: Clock, windowSeconds: number) {
  const since = reopenWindowStart(clock.now(), windowSeconds, false);
  const ids = contactRows.map((c) => c.id);
  const candidates = await tx
    .select()
    .from(tickets)
    .where(
      and(
        eq(tickets.whatsappId, whatsappId),
        inArray(tickets.contactId, ids),
        or(inArray(tickets.status, ["pending", "open"]), gte(tickets.updatedAt, since)),
      ),
    )
    .for("update");
  const before = new Map<number, TicketRow>();
  const current = new Map<number, TicketRow>();
  const reopen: number[] = [];
  const missing: number[] = [];
  for (const contactId of ids) {
    const found = pickTicket(
      candidates.filter((t) => t.contactId === contactId),
      since,
    );
    if (found) {
      before.set(contactId, found.ticket);
      current.set(contactId, found.ticket);
      if (found.reopen) reopen.push(found.ticket.id);
    } else missing.push(contactId);
  }
  if (reopen.length > 0) {
    const reopened = await tx
      .update(tickets)
      .set({ ...REOPENED, updatedAt: new Date() })
      .where(inArray(tickets.id, reopen))
      .returning();
    for (const t of reopened) current.set(t.contactId, t);
  }
  if (missing.length > 0) {
    const created = await tx
      .insert(tickets)
      .values(
        missing.map((contactId) => ({
          contactId,
          whatsappId,
          status: "pending",
          isGroup: false,
          // The contact's last message on this connection, read in the same statement (issue 24).
          lastInboundAt: sql`(select max(t.last_inbound_at) from ${tickets} t
            where t.contact_id = ${contactId} and t.whatsapp_id = ${whatsappId})` as unknown as Date,
        })),
      )
      .onConflictDoNothing({ target: [tickets.contactId, tickets.whatsappId], where: sql`status in ('pending', 'open')` })
      .returning();
    // Another process opened one of them meanwhile: the one-message path joins it.
    if (created.length < missing.length) throw new NotBatchable("ticket opened concurrently");
    for (const t of created) current.set(t.contactId, t);
  }
  return { before, current };
}

/** What the events present of a ticket besides its row, and its queue's business hours. */
interface TicketExtra {
  tags: JoinedTicket["tags"];
  queue: { id: number; name: string; color: string; schedule: BusinessSchedule | null } | null;
  user: { id: number; name: string } | null;
  closingReason: { id: number; name: string; archived: boolean } | null;
}

/**
 * Preview (the ticket's last message of the batch), unread count and last inbound time, in one
 * statement that also returns what the events, business hours and consent read of each ticket.
 */
async function touchTickets(
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
          from ${closingReasons} r where r.id = "tickets"."closing_reason_id"))`,
      ...consentColumns(whatsappId),
    });
}

/** The tickets as the realtime events present them, from the rows the ticket update returned. */
function joinTickets(
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
        },
      ];
    }),
  );
}
