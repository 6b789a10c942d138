import { inArray } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { tickets } from "../../db/schema.js";
import { type InboundTally, pickTicket, REOPENED, tallyInbound } from "../inbound/ticket-rules.js";
import type { JoinedTicket, TicketRow } from "../tickets/tickets.repo.js";
import { type BatchConnection, type FoundTickets, insertAndTouchBatch, type TouchedTicket } from "./inbound-batch-sql.js";
import type { Ingest } from "./inbound-store.js";
import type { NewMessage } from "./messages.repo.js";

export type { BatchConnection, TicketExtra } from "./inbound-batch-sql.js";

/**
 * The batch's ticket steps (`inbound-batch.ts`): find or open each contact's ticket, then update
 * them after the messages, returning what the events, business hours and consent read. Their
 * statements are `inbound-batch-sql.ts`'s, one SQL text each whatever the batch's size (issue 24).
 */

type ContactLite = JoinedTicket["contact"];

/**
 * Each contact's ticket, as the one-message path finds it: the active one, else the latest moved
 * within the window (reopened pending and unassigned), else a new one. `found` is the tickets
 * statement's answer (`upsertAndFindTickets`: the candidates locked, and a ticket opened for each
 * contact without one, as pickTicket would pick a candidate: active, else moved since `since`).
 * `before` holds the tickets as they were; `at` is the transaction's time as the database gives it.
 */
export async function settleTickets(tx: Db, found: FoundTickets, contactRows: ContactLite[], since: Date) {
  const ids = contactRows.map((c) => c.id);
  const { at, rows } = found;
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
  if (created.length < missing) return { before, current, at, openedConcurrently: true };
  for (const t of created) current.set(t.contactId, t);
  if (reopen.length > 0) {
    const reopened = await tx
      .update(tickets)
      .set({ ...REOPENED, updatedAt: new Date() })
      .where(inArray(tickets.id, reopen))
      .returning();
    for (const t of reopened) current.set(t.contactId, t);
  }
  return { before, current, at, openedConcurrently: false };
}

/**
 * The batch's messages inserted, then each ticket's preview (the ticket's last message of the
 * batch), unread count and last inbound time updated, in one round trip; the update also returns
 * what the events, business hours and consent read of each ticket. `rows` are `fresh`'s messages,
 * in the same order.
 */
export async function insertAndTouch(
  tx: Db,
  whatsappId: number,
  fresh: Ingest[],
  rows: NewMessage[],
  quiet: string,
  onlyQueueId: number | undefined,
) {
  const itemsOf = new Map<number, Ingest[]>();
  fresh.forEach((item, i) => {
    const id = (rows[i] as NewMessage).ticketId;
    itemsOf.set(id, [...(itemsOf.get(id) ?? []), item]);
  });
  const per = new Map<number, InboundTally>([...itemsOf].map(([id, items]) => [id, tallyInbound(items)]));
  return insertAndTouchBatch(tx, rows, quiet, whatsappId, per, onlyQueueId);
}

/** The tickets as the realtime events present them, from the rows the ticket update returned. */
export function joinTickets(
  rows: TouchedTicket[],
  connection: BatchConnection,
  contactRows: ContactLite[],
): Map<number, JoinedTicket> {
  const whatsapp = { id: connection.id, name: connection.name, provider: connection.provider };
  return new Map(
    rows.map(({ extra, consentWords: _w, consentOptedOut: _o, consentConfigIds: _c, ...row }) => {
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
