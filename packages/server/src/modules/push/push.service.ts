import {
  type Connection,
  canAccessTicket,
  isAdmin,
  type Message,
  type NoteMention,
  type NotificationPreferences,
  type NotificationPreferencesInput,
  type PushPayload,
  type PushSubscriptionInput,
  type Ticket,
} from "@zapdesk/core";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import { agentsSeeChoosingQueue } from "../routing/choosing.js";
import { isAllowedEndpoint } from "./endpoint-guard.js";
import * as repo from "./push.repo.js";
import { restrictionPayloadFor } from "./push-connection.js";
import type { PushSend } from "./push-sender.js";
import type { VapidKeys } from "./vapid.js";

export interface PushServiceOptions {
  db: Db;
  logger: FastifyBaseLogger;
  /** Undefined: push is off (production without VAPID keys). */
  vapid?: VapidKeys;
  send?: PushSend;
  /** Tests only: accept http://127.0.0.1 endpoints (a local fake push service). */
  allowInsecureEndpoints?: boolean;
  /** Waits before the retries of a failed delivery (not 404/410); default 2 s then 10 s. */
  retryDelaysMs?: number[];
}

const PREVIEW_LENGTH = 120;
/** A push no one picked up within a day is stale (the ticket list tells the rest). */
const TTL_SECONDS = 24 * 60 * 60;

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

/** The notification for a customer message: the contact's name, a preview, the ticket to open, one tag per ticket. */
export function payloadFor(message: Message, ticket: Ticket): PushPayload {
  const text = message.body.trim() || (message.mediaType !== "chat" ? `📎 ${message.mediaName ?? message.mediaType}` : "");
  return {
    title: ticket.contact.name,
    body: truncate(text.replace(/\s+/g, " "), PREVIEW_LENGTH),
    url: `/tickets/${ticket.id}`,
    tag: `ticket-${ticket.id}`,
    ticketId: ticket.id,
  };
}

/**
 * Spec §6, the bell's rule (web `shouldNotify`) plus the ticket's visibility (design §4): a
 * customer's unread message in a non-group ticket, told to its assignee, or to everyone who may
 * see the ticket while it is unassigned. Never to someone who cannot see the ticket.
 */
export function isToldOf(
  recipient: { id: number; profile: string; queueIds: readonly number[] },
  message: Message,
  ticket: Ticket,
  agentsSeeChoosing = false,
) {
  if (message.fromMe || message.read || message.isNote || ticket.isGroup) return false;
  if (ticket.userId !== null && ticket.userId !== recipient.id) return false;
  // Issue 13: a ticket still at the greeting menu reaches agents only when the admin allows it.
  if (ticket.choosingQueue && !agentsSeeChoosing && !isAdmin(recipient)) return false;
  // Issue 23 §4: a queue's bot is talking with the customer: not an agent's yet (admins may take over).
  if (ticket.botHeld && !isAdmin(recipient)) return false;
  return canAccessTicket(recipient, ticket);
}

/** A colleague mentioned the user in a private note (issue 11): who wrote, about which contact, the note's start. */
export function mentionPayloadFor(mention: NoteMention): PushPayload {
  const author = mention.author?.name ?? "Zapdesk";
  return {
    title: `📝 ${author} · ${mention.contact.name}`,
    body: truncate(mention.body.replace(/\s+/g, " "), PREVIEW_LENGTH),
    url: `/tickets/${mention.ticketId}?message=${mention.messageId}`,
    tag: `mention-${mention.id}`,
    ticketId: mention.ticketId,
  };
}

export function createPushService(options: PushServiceOptions) {
  const { db, logger, vapid, send } = options;
  const retryDelays = options.retryDelaysMs ?? [2_000, 10_000];
  const pending = new Set<Promise<void>>();

  const track = (work: Promise<void>) => {
    const tracked = work
      .catch((error) => logger.warn({ err: error }, "push fan-out failed"))
      .finally(() => pending.delete(tracked));
    pending.add(tracked);
  };

  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

  /**
   * Who has push on, read once for all the messages that ask while a read is under way: an inbound
   * batch announces its messages in the same tick, and would otherwise make one identical query per
   * message. A message may use a read that began a few milliseconds before it asked; a subscription
   * made in those milliseconds misses it, as if it had been made a moment later.
   */
  let recipientsInFlight: Promise<repo.PushRecipient[]> | undefined;
  const sharedRecipients = () => {
    recipientsInFlight ??= repo.pushRecipients(db).finally(() => {
      recipientsInFlight = undefined;
    });
    return recipientsInFlight;
  };

  async function deliver(subscription: repo.PushRecipient["subscriptions"][number], payload: PushPayload) {
    if (!send) return;
    const body = JSON.stringify(payload);
    for (let attempt = 0; ; attempt++) {
      const { status } = await send(subscription, body, { topic: payload.tag, ttlSeconds: TTL_SECONDS });
      if (status >= 200 && status < 300) return repo.markDelivery(db, subscription.id, true);
      // Gone: the browser unsubscribed or the subscription expired.
      if (status === 404 || status === 410) return repo.dropSubscription(db, subscription.id);
      // Anything else (429, 5xx, network): a few retries, then it is dropped for this message.
      const retryable = status === 0 || status === 429 || status >= 500;
      if (!retryable || attempt >= retryDelays.length) {
        logger.info({ status, subscription: subscription.id }, "push not delivered");
        return repo.markDelivery(db, subscription.id, false);
      }
      await sleep(retryDelays[attempt]);
    }
  }

  async function fanOut(message: Message, ticket: Ticket) {
    const agentsSeeChoosing = !!ticket.choosingQueue && (await agentsSeeChoosingQueue(db));
    const told = (await sharedRecipients()).filter((r) => isToldOf(r, message, ticket, agentsSeeChoosing));
    if (told.length === 0) return;
    const payload = payloadFor(message, ticket);
    await Promise.all(told.flatMap((r) => r.subscriptions.map((s) => deliver(s, payload))));
  }

  async function fanOutMention(mention: NoteMention & { userId: number }) {
    // Checked again here: the user must still see the ticket the note is in.
    const ticket = await repo.ticketScope(db, mention.ticketId);
    if (!ticket) return;
    const recipients = (await sharedRecipients()).filter((r) => r.id === mention.userId && canAccessTicket(r, ticket));
    const payload = mentionPayloadFor(mention);
    await Promise.all(recipients.flatMap((r) => r.subscriptions.map((s) => deliver(s, payload))));
  }

  async function fanOutAssignment(ticket: Ticket, userId: number) {
    const recipients = (await sharedRecipients()).filter((r) => r.id === userId && canAccessTicket(r, ticket));
    // The ticket's tag: this and the customer's next message collapse into one notification.
    const payload: PushPayload = {
      title: `➜ ${ticket.contact.name}`,
      body: truncate(ticket.lastMessage.replace(/\s+/g, " "), PREVIEW_LENGTH),
      url: `/tickets/${ticket.id}`,
      tag: `ticket-${ticket.id}`,
      ticketId: ticket.id,
    };
    await Promise.all(recipients.flatMap((r) => r.subscriptions.map((s) => deliver(s, payload))));
  }

  async function fanOutConnection(connection: Connection) {
    const payload = restrictionPayloadFor(connection, new Date());
    if (!payload) return;
    const admins = (await sharedRecipients()).filter((r) => isAdmin(r));
    await Promise.all(admins.flatMap((r) => r.subscriptions.map((s) => deliver(s, payload))));
  }

  return {
    publicKey: vapid?.publicKey ?? null,

    async subscribe(userId: number, input: PushSubscriptionInput) {
      if (!isAllowedEndpoint(input.endpoint, options.allowInsecureEndpoints)) {
        throw new AppError("ERR_PUSH_ENDPOINT_NOT_ALLOWED", {
          details: [{ path: ["endpoint"], message: "not a public https address" }],
        });
      }
      const row = await repo.upsertSubscription(db, { userId, endpoint: input.endpoint, ...input.keys });
      return { id: row.id, endpoint: row.endpoint };
    },

    async unsubscribe(userId: number, endpoint: string): Promise<void> {
      if (!(await repo.deleteSubscription(db, userId, endpoint))) throw new AppError("ERR_NOT_FOUND");
    },

    listSubscriptions: (userId: number) => repo.listSubscriptions(db, userId),

    getPreferences: (userId: number) => repo.getPreferences(db, userId),

    async updatePreferences(userId: number, input: NotificationPreferencesInput): Promise<NotificationPreferences> {
      const current = await repo.getPreferences(db, userId);
      return repo.savePreferences(db, userId, { ...current, ...input });
    },

    /** A message was stored and announced: push it, in the background, to whoever is told of it. */
    messageCreated(message: Message, ticket: Ticket): void {
      if (!send || message.fromMe || ticket.isGroup) return;
      track(fanOut(message, ticket));
    },

    /** A private note mentioned a user: push it to them, in the background. */
    mentionCreated(mention: NoteMention & { userId: number }): void {
      if (!send) return;
      track(fanOutMention(mention));
    },

    /** Issue 13: automatic assignment gave the user a ticket: push it to them, in the background. */
    ticketAssigned(ticket: Ticket, userId: number): void {
      if (!send) return;
      track(fanOutAssignment(ticket, userId));
    },

    /** WhatsApp restricted a connection's number: push it to the admins, in the background. */
    connectionRestricted(connection: Connection): void {
      if (!send) return;
      track(fanOutConnection(connection));
    },

    /** Resolves when every delivery started so far is done (tests, shutdown). */
    async idle(): Promise<void> {
      while (pending.size) await Promise.all([...pending]);
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;
