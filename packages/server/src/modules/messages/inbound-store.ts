import { getTableColumns, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { contacts } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { withoutNul } from "../../lib/pg-safe.js";
import type { TicketScope } from "../../realtime/publisher.js";
import { holdForBot } from "../bots/bot-inbound.js";
import { findConnection } from "../connections/connections.repo.js";
import { applyConsent, type ConsentEntry } from "../consent/consent-inbound.js";
import { createdBesideTwin, isBsuidAddress, isLidAddress } from "../contacts/contact-addresses.js";
import type { ContactIdentity } from "../contacts/contact-identity.js";
import { emptyOutcome, type MergeOutcome } from "../contacts/contact-merge.js";
import { answerRating, recordAnswerMessage } from "../csat/ratings.js";
import {
  movedScope,
  pickTicket,
  REOPENED,
  reopenWindowStart,
  scopeOfTicket,
  tallyInbound,
  ticketSetAfterInbound,
} from "../inbound/ticket-rules.js";
import { loadMenu, menuStep } from "../menus/menu-step.js";
import * as ticketsRepo from "../tickets/tickets.repo.js";
import { PLACEHOLDER_TYPE, type Replaced, replacePlaceholder, replacesPlaceholder } from "./inbound-placeholder.js";
import * as repo from "./messages.repo.js";
import { sendOutOfHours } from "./out-of-hours.js";

/** What the pipeline stores for one inbound message (a channel message or a call). */
export interface Ingest {
  wid: string;
  chat: string;
  isGroup: boolean;
  groupName?: string;
  sender?: { number: string; name?: string; username?: string };
  fromMe: boolean;
  timestamp: Date;
  type: string;
  body: string;
  media?: { path: string; name: string; mime: string; mediaType: string };
  mediaError?: string;
  /** What WhatsApp said of media not stored yet (pending download, too large, failed), kept for the retry. */
  failedMedia?: { name: string | null; mime: string };
  quotedWid?: string;
  raw?: unknown;
}

export interface Stored {
  ticketId: number;
  /** The inbound message first, then any bot message it triggered. */
  messageIds: number[];
  contactId: number;
  /** The address the contact is reached at (the resolved chat). */
  chat: string;
  enqueued: boolean;
  /** The ticket changed hands (reopened unassigned, or routed to a queue): who had it before, who has it now. */
  moved?: { from: TicketScope; to: TicketScope };
  /** A ninth-digit twin took WhatsApp's form of its number (identity.publish announces it after commit). */
  identity?: MergeOutcome;
  /** Issue 22 §3: contacts whose consent records changed (told to clients after commit). */
  consentContacts?: number[];
}

/** The message row of an inbound item. */
export function messageValues(
  whatsappId: number,
  ticketId: number,
  contactId: number | null,
  item: Ingest,
  quotedId?: number,
): repo.NewMessage {
  return {
    wid: item.wid,
    whatsappId,
    ticketId,
    contactId,
    body: item.body,
    fromMe: item.fromMe,
    read: item.fromMe,
    ack: item.fromMe ? 1 : 0,
    mediaType: item.type,
    mediaPath: item.media?.path ?? null,
    mediaName: item.media?.name ?? item.failedMedia?.name ?? null,
    mediaMime: item.media?.mime ?? item.failedMedia?.mime ?? null,
    mediaError: item.mediaError ?? null,
    quotedMsgId: quotedId ?? null,
    raw: item.raw ?? null,
    createdAt: item.timestamp,
  };
}

/** What the consent step reads of a stored customer message (both roads). */
export function consentEntry(
  ticket: ticketsRepo.TicketRow,
  contact: { id: number; name: string },
  messageId: number,
  item: Ingest,
): ConsentEntry {
  return {
    ticket,
    contactId: contact.id,
    name: contact.name,
    messageId,
    wid: item.wid,
    body: item.body,
    type: item.type,
    fromMe: item.fromMe,
    isGroup: item.isGroup,
    timestamp: item.timestamp,
  };
}

const compact = <T>(rows: (T | undefined)[]): T[] => rows.filter((row): row is T => row !== undefined);

/** Thrown inside the transaction when the message is already stored: everything it wrote is rolled back. */
class Duplicate extends Error {}

/** A person's name is the agents' to edit, unless nobody named them yet (the name is still the bare number). */
export const personNameOnConflict = {
  name: sql`case when ${contacts.name} = ${contacts.number} then excluded.name else ${contacts.name} end`,
};

/**
 * Insert or lock the contact row; locking it serialises every message of one chat, so bursts make
 * one ticket. A BSUID address keys a customer who hides their number (its username kept for display).
 */
async function upsertContact(tx: Db, number: string, name: string, isGroup: boolean, username?: string) {
  const bsuid = isBsuidAddress(number);
  const [row] = await tx
    .insert(contacts)
    .values({
      number,
      name: name || number,
      isGroup,
      lid: isLidAddress(number) ? number : null,
      bsuid: bsuid ? number : null,
      username: bsuid ? (username ?? null) : null,
    })
    .onConflictDoUpdate({
      target: contacts.number,
      // A group's subject may change; a person's name is the agents' to edit, unless nobody
      // named them yet (the name is still the bare number) and WhatsApp now tells us one.
      set: isGroup
        ? // Without a subject (metadata slow, or a replay before connecting) the group keeps its name.
          { name: sql`case when excluded.name = excluded.number then ${contacts.name} else excluded.name end` }
        : bsuid && username
          ? { ...personNameOnConflict, username }
          : personNameOnConflict,
    })
    .returning({ ...getTableColumns(contacts), twin: createdBesideTwin });
  const { twin, ...contact } = row;
  return { row: contact, twin };
}

export function createInboundStore(deps: { db: Db; clock: Clock; identity: ContactIdentity }) {
  const { db, identity } = deps;

  /**
   * The ticket a message belongs to. A customer's message reopens their recent ticket (as
   * pending, unassigned) or starts one; a message from our side (an echo of what we sent, or a
   * reply typed on the phone) joins the latest ticket as it is and never changes its status or
   * assignee. `before` is the ticket as it was, for an existing one.
   */
  async function ticketFor(tx: Db, whatsappId: number, contactId: number, item: Ingest, windowSeconds: number) {
    const active = await ticketsRepo.findActiveTicket(tx, contactId, whatsappId);
    if (active) return { ticket: active, before: active };
    if (item.fromMe) {
      const latest = await ticketsRepo.findLatestTicket(tx, contactId, whatsappId);
      if (latest) return { ticket: latest, before: latest };
    } else {
      const since = reopenWindowStart(deps.clock.now(), windowSeconds, item.isGroup);
      const recent = pickTicket(compact([await ticketsRepo.findRecentTicket(tx, contactId, whatsappId, since)]), since);
      if (recent) {
        const ticket = await ticketsRepo.updateTicket(tx, recent.ticket.id, REOPENED);
        return { ticket, before: recent.ticket };
      }
    }
    const ticket = await ticketsRepo.insertTicketIfNoneActive(tx, {
      contactId,
      whatsappId,
      status: "pending",
      isGroup: item.isGroup,
      lastInboundAt: await ticketsRepo.lastInboundAt(tx, contactId, whatsappId),
    });
    return { ticket, before: undefined };
  }

  /**
   * Queue menu and greetings (design §4, issue 23 §3: modules/menus/menu-step.ts, shared with the batch).
   * An answer that picks a queue ("2") is no preview: the ticket keeps `preview`, what the customer wrote before.
   */
  async function routeToQueue(tx: Db, ticket: ticketsRepo.TicketRow, name: string, body: string, preview: string) {
    if (ticket.queueId !== null || ticket.userId !== null || ticket.whatsappId === null) return { ticket, botIds: [] };
    const connection = await findConnection(tx, ticket.whatsappId);
    if (!connection) return { ticket, botIds: [] };
    return menuStep(tx, deps.clock, await loadMenu(tx, connection), { ticket, name, body, preview });
  }

  /**
   * Contact, ticket and message in one transaction; undefined for a message already stored (nothing
   * written), or what was replaced when the message is the real copy of a stored placeholder.
   */
  async function store(whatsappId: number, input: Ingest, windowSeconds: number): Promise<Stored | Replaced | undefined> {
    const item = withoutNul(input);
    try {
      return await db.transaction(async (tx) => {
        // A redelivery or our own echo is a no-op before any other write; a placeholder's real copy replaces it.
        const existing = await repo.findMessageByWid(tx, whatsappId, item.wid);
        if (existing) return replacesPlaceholder(existing, item) ? replacePlaceholder(tx, whatsappId, existing, item) : undefined;
        const chat = item.isGroup ? item.chat : await identity.resolve(tx, item.chat);
        const chatName = item.isGroup ? (item.groupName ?? chat) : item.fromMe ? chat : (item.sender?.name ?? chat);
        let changed = emptyOutcome();
        /** The contact row of an address, the ninth-digit twin taking this form when only the other existed. */
        const contactOf = async (number: string, name: string, isGroup: boolean, username?: string) => {
          const upserted = await upsertContact(tx, number, name, isGroup, username);
          if (!upserted.twin) return upserted.row;
          const adopted = await identity.adoptTwin(tx, upserted.row);
          changed = adopted.outcome;
          return adopted.contact;
        };
        const contact = await contactOf(chat, chatName, item.isGroup, item.fromMe ? undefined : item.sender?.username);
        let author = item.fromMe ? null : contact;
        if (item.isGroup && item.sender && !item.fromMe) {
          const number = await identity.resolve(tx, item.sender.number);
          author = await contactOf(number, item.sender.name ?? number, false, item.sender.username);
        }

        // Issue 11 CSAT: an answer to a pending satisfaction question stays on its closed ticket.
        // A placeholder's words are not known yet: it is no answer, and must not cancel the question.
        const answer =
          item.fromMe || item.isGroup || item.type === PLACEHOLDER_TYPE
            ? undefined
            : await answerRating(tx, { whatsappId, contactId: contact.id, body: item.body, now: deps.clock.now() });
        if (answer) {
          const stored = await repo.insertMessage(tx, messageValues(whatsappId, answer.ticket.id, contact.id, item));
          if (!stored) throw new Duplicate();
          await recordAnswerMessage(tx, answer.ratingId, stored.id);
          // Issue 22 §3: a rating is writing again too (it lifts an opt-out); no consent question on a closed ticket.
          const consent = await applyConsent(
            tx,
            deps.clock,
            whatsappId,
            [consentEntry(answer.ticket, contact, stored.id, item)],
            {
              prompt: false,
            },
          );
          return {
            consentContacts: consent.contactIds,
            ticketId: answer.ticket.id,
            messageIds: [stored.id],
            contactId: contact.id,
            chat,
            enqueued: false,
            identity: changed,
          };
        }
        const found = await ticketFor(tx, whatsappId, contact.id, item, windowSeconds);
        let ticket = found.ticket;
        if (!ticket) throw new Error("ticket not created");
        const previewBefore = ticket.lastMessage;

        const quoted = item.quotedWid ? await repo.findMessageByWid(tx, whatsappId, item.quotedWid) : undefined;
        const message = await repo.insertMessage(tx, messageValues(whatsappId, ticket.id, author?.id ?? null, item, quoted?.id));
        // Stored by a concurrent copy since the check above: undo the ticket work too.
        if (!message) throw new Duplicate();

        ticket = await ticketsRepo.updateTicket(tx, ticket.id, ticketSetAfterInbound(tallyInbound([item])));
        if (!ticket) throw new Error("ticket vanished");
        const routed =
          item.fromMe || item.isGroup
            ? { ticket, botIds: [] }
            : await routeToQueue(tx, ticket, contact.name, item.body, previewBefore);
        // Business hours: the queue now settled may be closed (its out-of-hours message, once a day).
        const settled = routed.ticket;
        // Issue 23 §4: the queue's bot takes the message (one call where the queue is decided).
        const entered = settled.queueId !== ticket.queueId || found.before === undefined || found.before.status === "closed";
        await holdForBot(tx, { ...item, ticket: settled, entered, messageId: message.id, now: deps.clock.now() });
        // Issue 22 §3: opt-out words, consent answers, and the consent question before the conversation is handled.
        const consent = item.isGroup
          ? { prompts: new Map<number, number>(), contactIds: [] }
          : await applyConsent(tx, deps.clock, whatsappId, [consentEntry(settled, contact, message.id, item)]);
        const closed =
          item.fromMe || item.isGroup
            ? new Map()
            : await sendOutOfHours(tx, deps.clock, [{ ticket: settled, name: contact.name }]);
        const botIds: number[] = [...routed.botIds, ...consent.prompts.values(), ...closed.values()];
        // Issue 13: at the greeting menu (the menu sent now or before) the ticket reaches admins only by default.
        const to = scopeOfTicket(settled);
        const moved = movedScope(found.before && scopeOfTicket(found.before), to);
        return {
          ticketId: ticket.id,
          messageIds: [message.id, ...botIds],
          contactId: contact.id,
          chat,
          enqueued: botIds.length > 0,
          identity: changed,
          moved,
          consentContacts: consent.contactIds,
        };
      });
    } catch (error) {
      if (error instanceof Duplicate) return undefined;
      throw error;
    }
  }

  return { store };
}
