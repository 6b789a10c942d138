import { randomBytes } from "node:crypto";
import { type Automation, PLACEHOLDER_PREVIEW, specialPreview } from "@zapdesk/core";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { messages, outbox, tickets, whatsapps } from "../../db/schema.js";
import * as ticketsRepo from "../tickets/tickets.repo.js";
import * as repo from "./messages.repo.js";
import { CLOUD_CAPTION_MAX, CLOUD_TEXT_MAX, cloudParts } from "./outbound-split.js";

/**
 * Our own WhatsApp message ids, chosen before sending: the echo WhatsApp sends back
 * for an outbound message then matches the stored row instead of creating another.
 */
export function newWid(): string {
  return `3EB0${randomBytes(10).toString("hex").toUpperCase()}`;
}

/** How an outbound message is to be sent, kept in its raw data until (and after) it goes. */
export interface OutboundIntent {
  asVoice?: boolean;
  template?: { name: string; language: string; components: unknown[] };
  /** Sent by no agent's hand (a schedule, the API token): held while the number may not open chats. */
  automatic?: boolean;
  /** What sent an automatic message (`fromBot`); rows stored before it was recorded have none. */
  automation?: Automation;
}

/** The intent stored with an outbound row (older rows kept `{ asVoice }` at the top level). */
export function outboundIntent(raw: unknown): OutboundIntent {
  if (!raw || typeof raw !== "object") return {};
  const stored = (raw as { outbound?: OutboundIntent }).outbound;
  if (stored && typeof stored === "object") return stored;
  return (raw as { asVoice?: unknown }).asVoice === true ? { asVoice: true } : {};
}

export interface OutboundInput {
  ticket: ticketsRepo.TicketRow;
  body: string;
  userId?: number | null;
  /**
   * An automatic message (stored `fromBot`: never the ticket's preview) and what sent it: a queue's
   * bot, the greeting menu, a rule, or Zapdesk itself (farewell, protocol, CSAT, notices).
   */
  automation?: Automation;
  quotedMsgId?: number | null;
  media?: { path: string; name: string; mime: string; mediaType: string; asVoice?: boolean };
  /** An approved template (Cloud API); `body` is its rendered text. */
  template?: OutboundIntent["template"];
  /** When the message is made (defaults to now). */
  at?: Date;
  /** Not typed by an agent nor a bot's (a schedule, an API-token send): see OutboundIntent.automatic. */
  automatic?: boolean;
}

/** The text that summarises a message in the ticket list. */
export function lastMessageText(body: string, mediaName?: string | null): string {
  const text = body || mediaName || "";
  return text.length > 255 ? `${text.slice(0, 252)}...` : text;
}

type PreviewSource = Pick<repo.MessageRow, "id" | "body" | "mediaName" | "mediaType" | "createdAt">;

/** The preview of a stored message: its text, else its file name or kind. */
export function previewOf(message: PreviewSource): string {
  // A message not decrypted yet: clients show their own words for it (inbound-placeholder.ts).
  if (message.mediaType === "placeholder") return PLACEHOLDER_PREVIEW;
  const special = specialPreview(message.mediaType, message.body);
  if (special !== undefined) return lastMessageText(special);
  return lastMessageText(message.body, message.mediaType === "chat" ? "" : (message.mediaName ?? message.mediaType));
}

const newer = (a: PreviewSource, b: PreviewSource) =>
  a.createdAt.getTime() > b.createdAt.getTime() || (a.createdAt.getTime() === b.createdAt.getTime() && a.id > b.id);

/**
 * After `changed` was edited or deleted: when it was the message the preview shows (the newest
 * one that is neither automatic, deleted nor a private note), the preview becomes the newest such message left,
 * or empty. Returns whether the ticket's preview was rewritten.
 */
export async function refreshPreview(tx: Db, changed: repo.MessageRow): Promise<boolean> {
  const [latest] = await tx
    .select({
      id: messages.id,
      body: messages.body,
      mediaName: messages.mediaName,
      mediaType: messages.mediaType,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(
      and(
        eq(messages.ticketId, changed.ticketId),
        eq(messages.fromBot, false),
        eq(messages.isDeleted, false),
        eq(messages.isNote, false),
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  if (changed.fromBot || changed.isNote || (latest && latest.id !== changed.id && newer(latest, changed))) return false;
  // Not through updateTicket: a deleted message must not move the ticket to the top of the lists.
  await tx
    .update(tickets)
    .set({ lastMessage: latest ? previewOf(latest) : "" })
    .where(eq(tickets.id, changed.ticketId));
  return true;
}

/**
 * The bodies a message goes as on its ticket's connection: one, unless a Cloud API connection
 * cannot take it whole (a text over 4,096, a caption over 1,024). The connection is looked up
 * only for a body that long.
 */
async function bodiesOf(tx: Db, input: OutboundInput): Promise<string[]> {
  const limit = input.media ? CLOUD_CAPTION_MAX : CLOUD_TEXT_MAX;
  if (input.template || input.body.length <= limit || input.ticket.whatsappId === null) return [input.body];
  const [connection] = await tx
    .select({ provider: whatsapps.provider })
    .from(whatsapps)
    .where(eq(whatsapps.id, input.ticket.whatsappId));
  return connection?.provider === "cloud" ? cloudParts(input.body, !!input.media) : [input.body];
}

/**
 * Store an outbound message and its outbox rows in the caller's transaction, as several messages
 * when the connection cannot take it whole (see bodiesOf): the first carries the media and the
 * quote, the others follow it as text, in order (the outbox sends a chat's rows by id). Returns
 * every row, first first.
 */
export async function enqueueOutboundParts(tx: Db, input: OutboundInput): Promise<repo.MessageRow[]> {
  const bodies = await bodiesOf(tx, input);
  const rows: repo.MessageRow[] = [];
  for (const [index, body] of bodies.entries()) {
    const part = index === 0 ? { ...input, body } : { ...input, body, media: undefined, quotedMsgId: null };
    rows.push(await enqueueOne(tx, part));
  }
  return rows;
}

/**
 * Store an outbound message (ack 0) and its outbox row in the caller's transaction:
 * it is sent by the outbox worker, after commit, and survives a restart. A message too long for
 * its connection is stored as several (enqueueOutboundParts); this returns the first, and the
 * others are published when they are sent.
 */
export async function enqueueOutbound(tx: Db, input: OutboundInput): Promise<repo.MessageRow> {
  const [first] = await enqueueOutboundParts(tx, input);
  return first;
}

async function enqueueOne(tx: Db, input: OutboundInput): Promise<repo.MessageRow> {
  const at = input.at ?? new Date();
  const row = await repo.insertMessage(tx, {
    wid: newWid(),
    whatsappId: input.ticket.whatsappId,
    ticketId: input.ticket.id,
    contactId: null,
    userId: input.userId ?? null,
    body: input.body,
    fromMe: true,
    fromBot: input.automation !== undefined,
    read: true,
    ack: 0,
    mediaType: input.media?.mediaType ?? "chat",
    mediaPath: input.media?.path ?? null,
    mediaName: input.media?.name ?? null,
    mediaMime: input.media?.mime ?? null,
    quotedMsgId: input.quotedMsgId ?? null,
    raw:
      input.media?.asVoice || input.template || input.automatic || input.automation
        ? {
            outbound: {
              ...(input.media?.asVoice ? { asVoice: true } : {}),
              ...(input.template ? { template: input.template } : {}),
              ...(input.automatic ? { automatic: true } : {}),
              ...(input.automation ? { automation: input.automation } : {}),
            },
          }
        : null,
    createdAt: at,
  });
  if (!row) throw new Error("outbound message id collision");
  await tx.insert(outbox).values({ messageId: row.id, runAt: at });
  await ticketsRepo.updateTicket(tx, input.ticket.id, {
    ...(input.automation ? {} : { lastMessage: lastMessageText(input.body, input.media?.name) }),
    updatedAt: at,
  });
  return row;
}

/** Wake-up signal for the outbox worker, so a fresh message goes out at once. */
export type OutboxNotifier = () => void;

export async function pendingOutboxCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(outbox);
  return row.n;
}
