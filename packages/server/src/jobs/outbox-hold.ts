import { type ConnectionRestriction, newChatBlock, REACHOUT_WINDOW_MS } from "@zapdesk/core";
import type { Db } from "../db/client.js";
import { outboundIntent } from "../modules/messages/outbound.js";
import { lastInboundAt } from "../modules/tickets/tickets.repo.js";

/** How often a held message is looked at again (the customer may write meanwhile; WhatsApp may lift the restriction early). */
export const HOLD_RECHECK_MS = 60_000;

/**
 * Automatic: sent by no agent's hand at that moment — bot messages (greeting, menu, out-of-hours,
 * farewell, CSAT question, protocol notice, call notice), scheduled messages and API-token sends.
 */
export function isAutomatic(message: { fromBot: boolean; raw: unknown }): boolean {
  return message.fromBot || outboundIntent(message.raw).automatic === true;
}

export interface HoldInput {
  message: { fromBot: boolean; raw: unknown; whatsappId: number };
  isGroup: boolean;
  contactId: number;
  restriction: ConnectionRestriction | null;
  now: Date;
}

const utc = (date: Date) => `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;

function reasonOf(block: NonNullable<ReturnType<typeof newChatBlock>>, restriction: ConnectionRestriction): string {
  const until = block.until ? ` until ${utc(block.until)}` : "";
  if (block.kind === "timeLock") {
    return `WhatsApp's time-lock on new chats (${restriction.timeLock?.enforcementType ?? "DEFAULT"})${until}`;
  }
  const cap = restriction.newChatCap;
  const used = cap?.used !== null && cap?.total !== null ? ` (${cap?.used} of ${cap?.total})` : "";
  return `WhatsApp's monthly cap on new chats is reached${used}${until}`;
}

/**
 * Whether a message must wait: the connection may not open chats now, the message is automatic,
 * and it would open (or re-open) a one-to-one chat the customer has not written in — no message
 * from the customer on this connection in the last REACHOUT_WINDOW_MS. Groups never count (nobody
 * is reached out to). Returns when to look again and the reason shown to the agent, or null.
 */
export async function holdOf(db: Db, input: HoldInput): Promise<{ recheckMs: number; title: string } | null> {
  if (input.isGroup || !isAutomatic(input.message)) return null;
  const block = newChatBlock(input.restriction, input.now);
  if (!block || !input.restriction) return null;
  const wrote = await lastInboundAt(db, input.contactId, input.message.whatsappId);
  if (wrote && input.now.getTime() - wrote.getTime() < REACHOUT_WINDOW_MS) return null;
  const untilMs = block.until ? block.until.getTime() - input.now.getTime() : Number.POSITIVE_INFINITY;
  return {
    recheckMs: Math.max(1000, Math.min(HOLD_RECHECK_MS, untilMs + 1000)),
    title: `Held: ${reasonOf(block, input.restriction)}; this automatic message would open a chat the customer has not written in, and goes when that ends`,
  };
}
