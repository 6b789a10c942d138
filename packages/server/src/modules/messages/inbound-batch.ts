import { and, eq, gte, inArray, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { closingReasons, contacts, messages, queues, tickets, users } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { withoutNul } from "../../lib/pg-safe.js";
import type { TicketScope } from "../../realtime/publisher.js";
import { findBot } from "../bots/bots.repo.js";
import { findConnection } from "../connections/connections.repo.js";
import { applyConsent } from "../consent/consent-inbound.js";
import { createdBesideTwin } from "../contacts/contact-addresses.js";
import { anyPendingRating } from "../csat/ratings.js";
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
import { tagsOfTickets } from "../tags/tags.repo.js";
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

/**
 * Store a batch in one transaction with a fixed number of statements whatever its size: the
 * duplicates check, contacts upserted in one, tickets found in one (then reopened and created in
 * one each when needed), messages inserted in one, tickets' preview/unread/last inbound updated in
 * one. The same outcome as storing the items one by one in order; undefined for an item already
 * stored (or repeated in the batch).
 */
export async function storeBatch(
  db: Db,
  clock: Clock,
  whatsappId: number,
  input: Ingest[],
  windowSeconds: number,
): Promise<(BatchStored | undefined)[]> {
  const items = input.map((item) => withoutNul(item));
  return db.transaction(async (tx) => {
    const connection = await findConnection(tx, whatsappId);
    // The queue menu and greetings are per-ticket conversations: the one-message path runs them.
    // Decided before the batch (inbound.ts); a connection given a second queue since then falls back here.
    if (!connection || !connectionBatches(connection.queues.length)) throw new HasQueueMenu();
    // Issue 23 §4: a queue with a bot talks with each customer in turn: one message at a time too.
    if (connection.queues[0] && (await findBot(tx, connection.queues[0].id))) throw new HasQueueMenu();
    // Issue 11 CSAT: an answer to a satisfaction question is read by the one-message path.
    if (await anyPendingRating(tx, whatsappId, [...new Set(items.map((i) => i.chat))])) throw new NotBatchable("rating pending");

    const existing = await tx
      .select({ wid: messages.wid, mediaType: messages.mediaType })
      .from(messages)
      .where(and(eq(messages.whatsappId, whatsappId), inArray(messages.wid, [...new Set(items.map((i) => i.wid))])));
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
      });
    // Issue 18: a new contact whose ninth-digit twin exists is one person: the identity module
    // (one-message path) moves the twin to this form. Checked inside the upsert, no extra statement.
    if (upserted.some((c) => c.twin)) throw new NotBatchable("ninth-digit twin");
    const contactRows: ContactLite[] = upserted.map(({ twin: _twin, ...contact }) => contact);
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
    // A copy stored by someone else since the check: the one-message path treats it as the duplicate it is.
    if (inserted.length < fresh.length) throw new NotBatchable("stored concurrently");

    const updated = await touchTickets(tx, fresh, inserted, connection.queues[0]?.id);
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
    );
    const consentChanged = new Set(consent.contactIds);
    // Business hours, after the batch as after one message: a closed queue's message, once a day per ticket.
    const notices = await sendOutOfHours(
      tx,
      clock,
      updated.map((ticket) => ({ ticket, name: contactRows.find((c) => c.id === ticket.contactId)?.name ?? "" })),
    );
    const joined = await joinTickets(tx, updated, connection, contactRows);
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
    const latest = await tx
      .select({ contactId: tickets.contactId, at: sql<Date | string | null>`max(${tickets.lastInboundAt})` })
      .from(tickets)
      .where(and(eq(tickets.whatsappId, whatsappId), inArray(tickets.contactId, missing)))
      .groupBy(tickets.contactId);
    const lastInbound = new Map(latest.map((r) => [r.contactId, r.at ? new Date(r.at) : null]));
    const created = await tx
      .insert(tickets)
      .values(
        missing.map((contactId) => ({
          contactId,
          whatsappId,
          status: "pending",
          isGroup: false,
          lastInboundAt: lastInbound.get(contactId) ?? null,
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

/** Preview (the ticket's last message of the batch), unread count and last inbound time, in one statement. */
async function touchTickets(
  tx: Db,
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
              sql`case when ${tickets.queueId} is null and ${tickets.userId} is null then ${onlyQueueId}::int else ${tickets.queueId} end` as unknown as number,
          }
        : {}),
    })
    .where(inArray(tickets.id, ids))
    .returning();
}

/** The tickets as the realtime events present them, from the rows in hand (agents' and foreign queues' names read when needed). */
async function joinTickets(
  tx: Db,
  rows: TicketRow[],
  connection: { id: number; name: string; provider: string; queues: { id: number; name: string; color: string }[] },
  contactRows: ContactLite[],
): Promise<Map<number, JoinedTicket>> {
  const userIds = [...new Set(rows.flatMap((t) => (t.userId === null ? [] : [t.userId])))];
  const agents = userIds.length
    ? await tx.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, userIds))
    : [];
  const known = new Map(connection.queues.map((q) => [q.id, { id: q.id, name: q.name, color: q.color }]));
  const foreign = [...new Set(rows.flatMap((t) => (t.queueId === null || known.has(t.queueId) ? [] : [t.queueId])))];
  if (foreign.length > 0) {
    const found = await tx
      .select({ id: queues.id, name: queues.name, color: queues.color })
      .from(queues)
      .where(inArray(queues.id, foreign));
    for (const q of found) known.set(q.id, q);
  }
  const whatsapp = { id: connection.id, name: connection.name, provider: connection.provider };
  // Issue 23 §6: a reopened ticket keeps the reason of its last close (read only when one has it).
  const reasonIds = [...new Set(rows.flatMap((t) => (t.closingReasonId === null ? [] : [t.closingReasonId])))];
  const reasons = reasonIds.length
    ? await tx
        .select({ id: closingReasons.id, name: closingReasons.name, archived: closingReasons.archived })
        .from(closingReasons)
        .where(inArray(closingReasons.id, reasonIds))
    : [];
  const tags = await tagsOfTickets(
    tx,
    rows.map((t) => t.id),
  );
  return new Map(
    rows.map((ticket) => [
      ticket.id,
      {
        ticket,
        contact: contactRows.find((c) => c.id === ticket.contactId) as ContactLite,
        queue: ticket.queueId === null ? null : (known.get(ticket.queueId) ?? null),
        user: agents.find((u) => u.id === ticket.userId) ?? null,
        whatsapp,
        tags: tags.get(ticket.id) ?? [],
        closingReason: reasons.find((r) => r.id === ticket.closingReasonId) ?? null,
      },
    ]),
  );
}
