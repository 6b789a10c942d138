import { WEBHOOK_CALL_EVENT, type WebhookEvent } from "@zapdesk/core";
import type { Db } from "../../db/client.js";
import { findContactById, listExtraInfo } from "../contacts/contacts.repo.js";
import { presentContact } from "../contacts/contacts.service.js";
import { presentMessage } from "../messages/messages.presenter.js";
import { findJoinedMessage } from "../messages/messages.repo.js";
import { tagsOfContact } from "../tags/tags.repo.js";
import { presentTicket } from "../tickets/tickets.presenter.js";
import { findJoinedTicket } from "../tickets/tickets.repo.js";
import type { DeliveryRow } from "./webhooks.repo.js";

async function ticketData(db: Db, id: number) {
  const row = await findJoinedTicket(db, id);
  return row ? presentTicket(row) : { id, deleted: true };
}

/**
 * The `data` of an event, in the API's own shapes (as `GET` answers them), read when the delivery
 * is first attempted. Something deleted in between is sent as `{ id, deleted: true }`.
 */
export async function eventData(db: Db, delivery: Pick<DeliveryRow, "event" | "entityId" | "previous">): Promise<unknown> {
  const id = delivery.entityId;
  switch (delivery.event as WebhookEvent) {
    case "message.created": {
      const row = await findJoinedMessage(db, id);
      if (!row) return { message: { id, deleted: true } };
      const message = presentMessage(row);
      const ticket = await ticketData(db, message.ticketId);
      return { message, ticket, contact: "contact" in ticket ? ticket.contact : null };
    }
    case "ticket.created":
      return { ticket: await ticketData(db, id) };
    case "ticket.updated":
    case "ticket.closed":
      return { ticket: await ticketData(db, id), previous: delivery.previous ?? null };
    case "contact.created": {
      const row = await findContactById(db, id);
      return {
        contact: row ? presentContact(row, await listExtraInfo(db, id), await tagsOfContact(db, id)) : { id, deleted: true },
      };
    }
    default:
      // Issue 23 §1–§2: a call from an action (calls.ts): the ticket, and what called it.
      if (delivery.event === WEBHOOK_CALL_EVENT) return { ticket: await ticketData(db, id), source: delivery.previous ?? null };
      return { id };
  }
}
