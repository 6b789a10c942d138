import {
  can,
  canAccessTicket,
  classifyTicketChange,
  isAdmin,
  isChoosingQueue,
  PAGE_SIZE,
  type Ticket,
  type TicketListQuery,
  type TicketUpdateInput,
  type ticketCreateSchema,
} from "@zapdesk/core";
import type { z } from "zod";
import type { Db } from "../../db/client.js";
import { readTogether } from "../../db/prepared.js";
import { AppError } from "../../lib/app-error.js";
import { type Clock, systemClock } from "../../lib/clock.js";
import { checkSearchTerm } from "../../lib/heavy-reads.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import type { Publisher, TicketScope } from "../../realtime/publisher.js";
import { recordAudit } from "../audit/audit.js";
import { endSession } from "../bots/bots.repo.js";
import { checkClosing, closingColumns, setClosingReason } from "../closing-reasons/closing.js";
import { findConnection, findDefaultConnection } from "../connections/connections.repo.js";
import { claimOnResolve } from "../contact-owner/contact-owner.js";
import { publishContact } from "../contact-owner/publish.js";
import { findContactById, ticketExtraInfoRead } from "../contacts/contacts.repo.js";
import { requestRating } from "../csat/ratings.js";
import * as messagesRepo from "../messages/messages.repo.js";
import type { OutboundQueue } from "../messages/outbound-queue.js";
import { findQueueById } from "../queues/queues.repo.js";
import { agentsSeeChoosingQueue } from "../routing/choosing.js";
import { setTicketTags } from "../tags/tag-links.js";
import { type AuthUser, findUserById } from "../users/users.repo.js";
import { findNextTicket } from "./next-ticket.js";
import { listTickets } from "./ticket-list.repo.js";
import { presentTicket } from "./tickets.presenter.js";
import * as repo from "./tickets.repo.js";

export const scopeOf = (ticket: Parameters<typeof isChoosingQueue>[0]): TicketScope => ({
  userId: ticket.userId,
  queueId: ticket.queueId,
  ...(isChoosingQueue(ticket) && { choosing: true }),
});

export interface TicketServiceDeps {
  db: Db;
  /** Issue 19: the heavy-read pool, for searches (the main pool when absent). */
  heavy?: Db;
  events: Publisher;
  /** Wake the outbox after a commit that enqueued messages. */
  /** Queues the farewell and the CSAT question; after commit wakes the outbox and announces them. */
  outbound: OutboundQueue;
  /** Best-effort read receipts on WhatsApp when an agent opens a ticket. */
  markReadOnWhatsApp?: (ticket: repo.TicketRow, wids: string[]) => void;
  /** Issue 18: a ticket started from a contact first checks its number with WhatsApp (ninth digit). */
  recheckNumber?: (contactId: number, whatsappId: number) => Promise<void>;
  clock?: Clock;
}

export function createTicketService(deps: TicketServiceDeps) {
  const { db, events } = deps;
  const now = () => (deps.clock ?? systemClock).now();

  /** Load a ticket the actor may reach; others get the same answer as a missing one. */
  async function accessible(actor: AuthUser, id: number, executor: Db = db, lock = false): Promise<repo.TicketRow> {
    const ticket = await repo.findTicket(executor, id, { lock });
    if (!ticket || !canAccessTicket(actor, ticket)) throw new AppError("ERR_NO_TICKET_FOUND");
    return ticket;
  }

  /** A ticket read by `repo.presentableTicketRead`, presented if the actor may reach it; others get the same answer as a missing one. */
  function presentReachable(actor: AuthUser, row: repo.JoinedTicket | undefined): Ticket {
    if (!row || !canAccessTicket(actor, row.ticket)) throw new AppError("ERR_NO_TICKET_FOUND");
    return presentTicket(row);
  }

  async function present(id: number): Promise<Ticket> {
    const row = await repo.findJoinedTicket(db, id);
    if (!row) throw new AppError("ERR_NO_TICKET_FOUND");
    return presentTicket(row);
  }

  async function publishUpdate(ticket: Ticket, previous?: TicketScope) {
    const scope = scopeOf(ticket);
    if (previous) events.ticketMoved(ticket.id, previous, scope);
    events.publishTicket("ticket", { action: "update", ticket }, scope);
  }

  return {
    accessible,
    presentReachable,
    present,

    async announce(id: number): Promise<void> {
      await publishUpdate(await present(id));
    },

    async canOpen(actor: AuthUser, id: number): Promise<boolean> {
      const ticket = await repo.findTicket(db, id);
      return !!ticket && canAccessTicket(actor, ticket);
    },

    async list(actor: AuthUser, query: TicketListQuery) {
      if (query.showAll && !can(actor, "tickets-manager:showall")) throw new AppError("ERR_NO_PERMISSION");
      checkSearchTerm(query.searchParam);
      const limit = PAGE_SIZE.tickets;
      const { rows, count, countCapped } = await listTickets(
        // A search reads the messages' history: the heavy-read pool (issue 19); the lists themselves stay on the main one.
        query.searchParam ? (deps.heavy ?? db) : db,
        {
          actor: {
            id: actor.id,
            admin: isAdmin(actor),
            queueIds: actor.queueIds,
            // Issue 24: the statement reads the greeting menu's setting itself (one round trip less).
            hideChoosing: isAdmin(actor) ? false : "setting",
          },
          status: query.status,
          date: query.date,
          showAll: query.showAll ?? false,
          queueIds: query.queueIds,
          withUnreadMessages: query.withUnreadMessages,
          myCustomers: query.myCustomers,
          tagIds: query.tagIds,
          search: query.searchParam.toLowerCase(),
          sort: query.sort,
        },
        { limit, offset: (query.pageNumber - 1) * limit },
      );
      // A capped count (issue 24) is at least the end of this page, so more pages follow.
      return {
        tickets: rows.map(presentTicket),
        count,
        hasMore: countCapped || count > query.pageNumber * limit,
        ...(query.searchParam ? { countCapped } : {}),
      };
    },

    /** Issue 13: the ticket to land on after handling `after` (see next-ticket.ts); null when all are handled. */
    async next(actor: AuthUser, after?: number): Promise<{ ticket: Ticket | null }> {
      const admin = isAdmin(actor);
      // The Waiting list's own rules: an agent never lands on a ticket still choosing a queue they can't list.
      const hideChoosing = !admin && !(await agentsSeeChoosingQueue(db));
      const row = await findNextTicket(db, { id: actor.id, admin, queueIds: actor.queueIds, hideChoosing }, after);
      return { ticket: row ? presentTicket(row) : null };
    },

    /** Opening a ticket reads it: unread back to 0, the customer's messages marked read. */
    async open(actor: AuthUser, id: number): Promise<Ticket> {
      // Issue 24: the ticket (joined, with its tags) and its contact's extra info in one round trip,
      // both prepared; the extra info's statement reads nothing of a ticket the actor may not reach.
      const reader = { id: actor.id, admin: isAdmin(actor), queueIds: actor.queueIds };
      const [row, extraInfo] = await readTogether(db, [repo.presentableTicketRead(db, id), ticketExtraInfoRead(db, id, reader)]);
      const presented = presentReachable(actor, row);
      const { ticket } = row!;
      if (ticket.unreadMessages > 0) {
        const wids = await db.transaction(async (tx) => {
          await repo.updateTicket(tx, id, { unreadMessages: 0, updatedAt: ticket.updatedAt });
          return messagesRepo.markTicketRead(tx, id);
        });
        events.publishTicket("ticket", { action: "updateUnread", ticketId: id }, scopeOf(ticket));
        if (wids.length) deps.markReadOnWhatsApp?.(ticket, wids);
      }
      return {
        ...presented,
        // What the update above wrote (it keeps updatedAt): read, as the ticket is answered.
        unreadMessages: 0,
        contact: { ...presented.contact, extraInfo: extraInfo.map(({ id, name, value }) => ({ id, name, value })) },
      };
    },

    /** A ticket started from a contact: open, assigned, on the default connection unless one is named. */
    async create(actor: AuthUser, input: z.output<typeof ticketCreateSchema>): Promise<Ticket> {
      if (!(await findContactById(db, input.contactId))) throw new AppError("ERR_NO_CONTACT_FOUND");
      const connection = input.whatsappId ? await findConnection(db, input.whatsappId) : await findDefaultConnection(db);
      if (!connection) throw new AppError(input.whatsappId ? "ERR_NO_WAPP_FOUND" : "ERR_NO_DEF_WAPP_FOUND");
      const userId = input.userId ?? actor.id;
      if (userId !== actor.id && !isAdmin(actor)) throw new AppError("ERR_NO_PERMISSION");
      if (userId !== actor.id && !(await findUserById(db, userId))) throw new AppError("ERR_NO_USER_FOUND");
      const { status } = input;
      await deps.recheckNumber?.(input.contactId, connection.id);
      const row = await repo
        .insertTicketIfNoneActive(db, {
          contactId: input.contactId,
          whatsappId: connection.id,
          status,
          isGroup: false,
          userId: status === "open" ? userId : null,
          // The customer's service window (Cloud API) does not restart with a new ticket.
          lastInboundAt: await repo.lastInboundAt(db, input.contactId, connection.id),
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw new AppError("ERR_OTHER_OPEN_TICKET");
          throw error;
        });
      if (!row) throw new AppError("ERR_OTHER_OPEN_TICKET");
      const ticket = await present(row.id);
      await publishUpdate(ticket);
      return ticket;
    },

    async update(actor: AuthUser, id: number, change: TicketUpdateInput): Promise<Ticket> {
      const outgoing = deps.outbound.begin();
      const outcome = await db
        .transaction(async (tx) => {
          const current = await accessible(actor, id, tx, true);
          // Issue 11: tags alone, or with the other fields (then the transition rules below apply too).
          if (change.tagIds) await setTicketTags(tx, id, change.tagIds);
          // Issue 23 §6: a closing reason comes with a resolve, or alone to correct a closed ticket's.
          const closing = { closingReasonId: change.closingReasonId, closingValue: change.closingValue };
          const withClosing = closing.closingReasonId !== undefined || closing.closingValue !== undefined;
          if (change.status === undefined && change.userId === undefined && change.queueId === undefined) {
            if (withClosing) await setClosingReason(tx, current, closing);
            if (change.tagIds || withClosing) return { previous: undefined, claimed: undefined };
          }
          const result = classifyTicketChange(current as Parameters<typeof classifyTicketChange>[0], change);
          if (!result.ok) throw new AppError("ERR_TICKET_TRANSITION", { message: result.reason });
          const { transition, next } = result;
          if (withClosing && transition !== "resolve") throw new AppError("ERR_CLOSING_REASON_NOT_CLOSING");
          // Agents take and resolve tickets for themselves; only admins act on someone else's behalf.
          if ((transition === "accept" || transition === "reopen") && next.userId !== actor.id && !isAdmin(actor)) {
            throw new AppError("ERR_NO_PERMISSION");
          }
          if (next.userId !== null && next.userId !== current.userId && !(await findUserById(tx, next.userId))) {
            throw new AppError("ERR_NO_USER_FOUND");
          }
          if (next.queueId !== null && next.queueId !== current.queueId && !(await findQueueById(tx, next.queueId))) {
            throw new AppError("ERR_NO_QUEUE_FOUND");
          }
          // The queue's "required" refuses a resolve without a reason; the close replaces the last one's.
          const closed =
            transition === "resolve"
              ? closingColumns(await checkClosing(tx, { queueId: current.queueId, choice: closing }), next.userId, now())
              : {};
          const updated = await repo.updateTicket(tx, id, {
            status: next.status,
            userId: next.userId,
            queueId: next.queueId,
            ...closed,
          });
          // Issue 23 §4: a bot holds waiting tickets only. Moved by a person or a rule (accepted,
          // transferred, resolved), it leaves the bot now, not at the customer's next message:
          // otherwise the new queue's agents would not see a ticket that still says a bot holds it.
          if (current.status === "pending" && current.userId === null) await endSession(tx, id);
          if (transition === "resolve" && updated && current.whatsappId !== null) {
            const connection = await findConnection(tx, current.whatsappId);
            if (connection?.farewellMessage.trim()) {
              await outgoing.enqueue(tx, { ticket: updated, body: connection.farewellMessage, automation: "system" });
            }
            // CSAT: the satisfaction question, after the farewell.
            if (connection) {
              await requestRating(tx, outgoing, { ticket: updated, connection, now: now() });
            }
          }
          // Issue 23 §5: with the setting on, the agent who resolves an unowned contact's ticket becomes its owner.
          const owner = next.userId ?? (actor.id > 0 ? actor.id : null);
          const claimed = transition === "resolve" && owner !== null && (await claimOnResolve(tx, current.contactId, owner));
          return { previous: scopeOf(current), claimed: claimed ? current.contactId : undefined };
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw new AppError("ERR_OTHER_OPEN_TICKET");
          throw error;
        });
      const ticket = await present(id);
      await publishUpdate(ticket, outcome.previous);
      if (outcome.claimed !== undefined) await publishContact(db, events, outcome.claimed);
      await outgoing.afterCommit();
      return ticket;
    },

    async remove(actor: AuthUser, id: number): Promise<void> {
      if (!can(actor, "ticket-options:deleteTicket")) throw new AppError("ERR_NO_PERMISSION");
      const ticket = await repo.findTicket(db, id);
      if (!ticket) throw new AppError("ERR_NO_TICKET_FOUND");
      await db.transaction(async (tx) => {
        if (!(await repo.deleteTicket(tx, id))) throw new AppError("ERR_NO_TICKET_FOUND");
        await recordAudit(tx, {
          action: "ticket.deleted",
          targetType: "ticket",
          targetId: id,
          details: { contactId: ticket.contactId, queueId: ticket.queueId, status: ticket.status },
        });
      });
      events.publishTicket("ticket", { action: "delete", ticketId: id }, scopeOf(ticket));
    },
  };
}

export type TicketService = ReturnType<typeof createTicketService>;
