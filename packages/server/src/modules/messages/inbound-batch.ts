import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { messages } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { withoutNul } from "../../lib/pg-safe.js";
import type { TicketScope } from "../../realtime/publisher.js";
import { type QuietSkip, type QuietSkips, quietFor, type ReceivedRules } from "../automation-rules/rule-quiet.js";
import { inboundStateOf } from "../consent/consent.repo.js";
import { applyConsent } from "../consent/consent-inbound.js";
import { movedScope, reopenWindowStart, scopeOfTicket } from "../inbound/ticket-rules.js";
import type { JoinedTicket, TicketRow } from "../tickets/tickets.repo.js";
import { queueAfterTouch, upsertAndFindTickets } from "./inbound-batch-sql.js";
import { insertAndTouch, joinTickets, settleTickets } from "./inbound-batch-tickets.js";
import { replacesPlaceholder } from "./inbound-placeholder.js";
import { consentEntry, type Ingest, messageValues } from "./inbound-store.js";
import type { JoinedMessage } from "./messages.repo.js";
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
export class NotBatchable extends Error {
  /** Whether the reason is the connection's own (a menu, a bot), true of its next messages too. */
  constructor(
    message: string,
    readonly ofConnection = false,
  ) {
    super(message);
  }
}

type ContactLite = JoinedTicket["contact"];
const replaces = (stored: { mediaType: string } | undefined, item: Ingest) => !!stored && replacesPlaceholder(stored, item);

/** Thrown inside the transaction when a message of the batch was stored before: the batch is written again, checking first. */
class AlreadyStored extends Error {}

/**
 * Store a batch in one transaction with a fixed number of statements whatever its size: contacts
 * upserted in one (with the connection, its queues and any pending rating, issue 24), tickets found
 * in one, in the same round trip (then reopened in one when needed), messages inserted in one (a message
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
  rules?: BatchRules,
): Promise<(BatchStored | undefined)[]> {
  const items = input.map((item) => withoutNul(item));
  try {
    return await writeBatch(db, clock, whatsappId, items, windowSeconds, rules, false);
  } catch (error) {
    if (!(error instanceof AlreadyStored)) throw error;
    return writeBatch(db, clock, whatsappId, items, windowSeconds, rules, true);
  }
}

/**
 * Issue 23 §1: the enabled "a message arrives" rules as the inbound path read them, and where the
 * rules' skips of the messages no rule can fire on are counted (automation-rules/rule-quiet.ts).
 */
export interface BatchRules {
  received: ReceivedRules;
  quiet: QuietSkips;
}

async function writeBatch(
  db: Db,
  clock: Clock,
  whatsappId: number,
  items: Ingest[],
  windowSeconds: number,
  rules: BatchRules | undefined,
  checkFirst: boolean,
): Promise<(BatchStored | undefined)[]> {
  let skipped: QuietSkip[] = [];
  const results = await db.transaction(async (tx) => {
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
    // The contacts and their tickets in one round trip; a batch refused below rolls back, its tickets with it.
    const since = reopenWindowStart(clock.now(), windowSeconds, false);
    const { contacts: upserted, found } = await upsertAndFindTickets(
      tx,
      whatsappId,
      [...names.keys()].sort().map((number) => ({ number, name: names.get(number) ?? number })),
      since,
    );
    // Issue 23 §3: a connection's menu (a tree, or the one-level menu of two or more queues) is a
    // conversation per ticket, which the one-message path walks (menus/menu-step.ts).
    const connection = upserted[0]?.connection;
    if (!connection) throw new NotBatchable("no connection", true);
    if (connection.hasMenu) throw new NotBatchable("menu", true);
    // Issue 23 §4: a queue with a bot talks with each customer in turn: one message at a time too.
    if (connection.hasBot) throw new NotBatchable("bot", true);
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

    const { before, current, at, openedConcurrently } = await settleTickets(tx, found, contactRows, since);
    if (openedConcurrently) throw new NotBatchable("ticket opened concurrently");

    const rows = fresh.map((item) => {
      const contact = contactOf.get(item.chat) as ContactLite;
      return messageValues(whatsappId, (current.get(contact.id) as TicketRow).id, contact.id, item);
    });
    // No rule can fire on these customers' messages: the rules' trigger queues none of them. Their
    // tickets as this transaction leaves them (`insertAndTouch` below may route them; nothing after it
    // moves one), and the time their events would be queued with.
    const onlyQueueId = connection.queues[0]?.id;
    const settledOf = new Map(
      [...current.values()].map((t) => [
        t.id,
        {
          status: t.status,
          userId: t.userId,
          whatsappId: t.whatsappId,
          provider: connection.provider,
          queueId: queueAfterTouch(t, onlyQueueId),
        },
      ]),
    );
    const received = rows
      .filter((row) => !row.fromMe)
      .map((row) => ({ text: row.body ?? "", ticket: settledOf.get(row.ticketId) ?? null, at }));
    const quiet = rules ? quietFor(rules.received, received) : null;
    // The messages, then their tickets' preview, unread count and last inbound time: one round trip.
    const { inserted, touched } = await insertAndTouch(tx, whatsappId, fresh, rows, quiet?.stamp ?? "", onlyQueueId);
    skipped = quiet?.skips ?? [];
    // Stored before (a redelivery): once more, checking first. A copy stored by someone else since
    // the check: the one-message path treats it as the duplicate it is. (The tickets' update goes
    // with the rollback.)
    if (inserted.length < fresh.length) throw checkFirst ? new NotBatchable("stored concurrently") : new AlreadyStored();

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
  // Counted once the messages are stored (a batch rolled back goes one message at a time, queued).
  if (skipped.length && rules) rules.quiet.add(skipped, clock.now());
  return results;
}
