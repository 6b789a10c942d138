import type { ChannelSession } from "../../channels/channel.js";
import type { Db } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import type { MediaStorage } from "../../media/storage.js";
import type { Publisher } from "../../realtime/publisher.js";
import { createContactService } from "../contacts/contacts.service.js";
import { createMessageService } from "../messages/messages.service.js";
import type { OutboundQueue } from "../messages/outbound-queue.js";
import { createTemplateSend } from "../messages/template-send.js";
import { createNoteService } from "../notes/notes.service.js";
import type { TemplateService } from "../templates/templates.service.js";
import { createTicketService } from "../tickets/tickets.service.js";

/** What the services need besides their database, events and outbound queue (from the composition root). */
export interface ServiceParts {
  clock: Clock;
  storage: MediaStorage;
  notifyOutbox: () => void;
  session: (whatsappId: number) => ChannelSession;
  templates: TemplateService;
}

/**
 * The very services an agent's clicks go through (tickets, messages, templates, notes, contacts),
 * made for one action list: their database is the list's transaction (their own transactions
 * become savepoints in it) and their events and outgoing messages are held until it commits
 * (deferred.ts). Every check they make for an agent is made for the list's runner.
 */
export function scopedServices(tx: Db, parts: ServiceParts, effects: { events: Publisher; outbound: OutboundQueue }) {
  const { clock } = parts;
  const { events, outbound } = effects;
  const tickets = createTicketService({ db: tx, heavy: tx, events, outbound, clock });
  const messages = createMessageService({
    db: tx,
    clock,
    events,
    tickets,
    storage: parts.storage,
    notifyOutbox: parts.notifyOutbox,
    outbound,
    session: parts.session,
  });
  return {
    /** The held events (published once the list committed). */
    events,
    tickets,
    messages,
    notes: createNoteService({ db: tx, clock, events, tickets, messages }),
    contacts: createContactService({ db: tx, heavy: tx, events }),
    sendTemplate: createTemplateSend({ db: tx, tickets, messages, templates: parts.templates, outbound }),
  };
}

export type ScopedServices = ReturnType<typeof scopedServices>;
