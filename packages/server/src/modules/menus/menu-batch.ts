import type { Db } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import { previewOfInbound } from "../inbound/ticket-rules.js";
import type { Ingest } from "../messages/inbound-store.js";
import type { TicketRow } from "../tickets/tickets.repo.js";
import { type Menu, menuStep } from "./menu-step.js";

/**
 * The batch's menu step: each customer message of the batch through menuStep in order, as one
 * message at a time would (the same step, the same outcome). `tickets` are the batch's tickets as
 * written, `before` each ticket's preview before the batch. Returns the tickets as they now are and
 * the messages queued per ticket.
 */
export async function menuBatch(
  tx: Db,
  clock: Clock,
  menu: Menu,
  items: { item: Ingest; ticketId: number; name: string }[],
  tickets: TicketRow[],
  previewBefore: Map<number, string>,
): Promise<{ tickets: TicketRow[]; botIds: Map<number, number[]> }> {
  const current = new Map(tickets.map((t) => [t.id, t]));
  const botIds = new Map<number, number[]>();
  const itemsOf = new Map<number, typeof items>();
  for (const entry of items) itemsOf.set(entry.ticketId, [...(itemsOf.get(entry.ticketId) ?? []), entry]);
  for (const [ticketId, entries] of itemsOf) {
    // The ticket's preview once the batch is stored: its last message's.
    const last = previewOfInbound(entries[entries.length - 1].item);
    let previous = previewBefore.get(ticketId) ?? "";
    for (const [k, { item, name }] of entries.entries()) {
      // One at a time, an answer that hands over keeps the preview before it; later messages then replace it.
      const preview = k === entries.length - 1 ? previous : last;
      const ticket = current.get(ticketId) as TicketRow;
      const step = await menuStep(tx, clock, menu, { ticket, name, body: item.body, preview });
      current.set(ticketId, step.ticket);
      if (step.botIds.length > 0) botIds.set(ticketId, [...(botIds.get(ticketId) ?? []), ...step.botIds]);
      previous = previewOfInbound(item);
    }
  }
  return { tickets: tickets.map((t) => current.get(t.id) as TicketRow), botIds };
}
