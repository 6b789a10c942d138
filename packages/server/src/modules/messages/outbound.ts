import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { outbox } from "../../db/schema.js";
import * as ticketsRepo from "../tickets/tickets.repo.js";
import * as repo from "./messages.repo.js";

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
  fromBot?: boolean;
  quotedMsgId?: number | null;
  media?: { path: string; name: string; mime: string; mediaType: string; asVoice?: boolean };
  /** An approved template (Cloud API); `body` is its rendered text. */
  template?: OutboundIntent["template"];
  /** When the message is made (defaults to now). */
  at?: Date;
}

/** The text that summarises a message in the ticket list. */
export function lastMessageText(body: string, mediaName?: string | null): string {
  const text = body || mediaName || "";
  return text.length > 255 ? `${text.slice(0, 252)}...` : text;
}

/**
 * Store an outbound message (ack 0) and its outbox row in the caller's transaction:
 * it is sent by the outbox worker, after commit, and survives a restart.
 */
export async function enqueueOutbound(tx: Db, input: OutboundInput): Promise<repo.MessageRow> {
  const at = input.at ?? new Date();
  const row = await repo.insertMessage(tx, {
    wid: newWid(),
    whatsappId: input.ticket.whatsappId,
    ticketId: input.ticket.id,
    contactId: null,
    userId: input.userId ?? null,
    body: input.body,
    fromMe: true,
    fromBot: input.fromBot ?? false,
    read: true,
    ack: 0,
    mediaType: input.media?.mediaType ?? "chat",
    mediaPath: input.media?.path ?? null,
    mediaName: input.media?.name ?? null,
    mediaMime: input.media?.mime ?? null,
    quotedMsgId: input.quotedMsgId ?? null,
    raw:
      input.media?.asVoice || input.template
        ? {
            outbound: {
              ...(input.media?.asVoice ? { asVoice: true } : {}),
              ...(input.template ? { template: input.template } : {}),
            },
          }
        : null,
    createdAt: at,
  });
  if (!row) throw new Error("outbound message id collision");
  await tx.insert(outbox).values({ messageId: row.id, runAt: at });
  await ticketsRepo.updateTicket(tx, input.ticket.id, {
    lastMessage: lastMessageText(input.body, input.media?.name),
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
