import { canAccessTicket, isAdmin, type Mentionable, type Message, type NoteMention } from "@zapdesk/core";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import type { Clock } from "../../lib/clock.js";
import type { Publisher } from "../../realtime/publisher.js";
import * as messagesRepo from "../messages/messages.repo.js";
import type { MessageService } from "../messages/messages.service.js";
import { lastMessageText } from "../messages/outbound.js";
import { scopeOf, type TicketService } from "../tickets/tickets.service.js";
import type { AuthUser } from "../users/users.repo.js";
import * as repo from "./notes.repo.js";

export interface NoteServiceDeps {
  db: Db;
  clock: Clock;
  events: Publisher;
  tickets: TicketService;
  messages: MessageService;
}

const MENTIONABLE_LIMIT = 20;
const MENTION_LIST_LIMIT = 50;

function presentMention(row: repo.MentionRow): NoteMention {
  return {
    id: row.id,
    messageId: row.messageId,
    ticketId: row.ticketId,
    body: lastMessageText(row.body),
    author: row.authorId !== null && row.authorName !== null ? { id: row.authorId, name: row.authorName } : null,
    contact: { id: row.contactId, name: row.contactName },
    read: row.readAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Private notes (issue 11): a message row with `isNote`, stored for colleagues and never given to
 * the outbox, so no channel ever sees it. It leaves the ticket as it was (status, unread count,
 * preview, place in the lists). Mentions notify the mentioned colleague only, and only a colleague
 * who may see the ticket can be mentioned.
 */
export function createNoteService(deps: NoteServiceDeps) {
  const { db, events, tickets } = deps;

  return {
    /** Colleagues who may see the ticket, for the composer's @ picker (the author excluded). */
    async mentionable(actor: AuthUser, ticketId: number, search: string): Promise<Mentionable[]> {
      const ticket = await tickets.accessible(actor, ticketId);
      const found = await repo.searchColleagues(db, search, 200);
      return found
        .filter((user) => user.id !== actor.id && canAccessTicket(user, ticket))
        .slice(0, MENTIONABLE_LIMIT)
        .map(({ id, name }) => ({ id, name }));
    },

    /** Any ticket the actor may reach, in any status: a note is internal, so no connection or window is needed. */
    async create(actor: AuthUser, ticketId: number, input: { body: string; mentions?: number[] }): Promise<Message> {
      const ticket = await tickets.accessible(actor, ticketId);
      const wanted = [...new Set(input.mentions ?? [])].filter((id) => id !== actor.id);
      const found = new Map((await repo.findColleagues(db, wanted)).map((user) => [user.id, user]));
      const pathOf = (id: number) => ["mentions", (input.mentions ?? []).indexOf(id)];
      const missing = wanted.filter((id) => !found.has(id));
      if (missing.length) {
        throw new AppError("ERR_VALIDATION", { details: missing.map((id) => ({ path: pathOf(id), message: "No such user" })) });
      }
      // Never tell someone about a ticket they cannot open: the note is refused, naming who.
      const blind = wanted.filter((id) => !canAccessTicket(found.get(id)!, ticket));
      if (blind.length) {
        throw new AppError("ERR_NOTE_MENTION_NO_ACCESS", {
          details: blind.map((id) => ({ path: pathOf(id), message: `${found.get(id)!.name} cannot see this ticket` })),
        });
      }
      const { note, mentions } = await db.transaction(async (tx) => {
        const note = await messagesRepo.insertMessage(tx, {
          wid: null,
          whatsappId: null,
          ticketId,
          contactId: null,
          userId: actor.id,
          body: input.body,
          fromMe: true,
          fromBot: false,
          read: true,
          ack: 0,
          mediaType: "chat",
          isNote: true,
          createdAt: deps.clock.now(),
        });
        if (!note) throw new Error("note insert returned nothing");
        const mentions = await repo.insertMentions(
          tx,
          wanted.map((userId) => ({ messageId: note.id, userId })),
        );
        return { note, mentions };
      });
      const message = await deps.messages.present(note.id);
      const presentedTicket = await tickets.present(ticketId);
      events.publishTicket(
        "appMessage",
        { action: "create", message, ticket: presentedTicket, contact: presentedTicket.contact },
        scopeOf(presentedTicket),
      );
      for (const mention of mentions) {
        events.publish("noteMention", {
          action: "create",
          mention: {
            id: mention.id,
            userId: mention.userId,
            messageId: note.id,
            ticketId,
            body: lastMessageText(note.body),
            author: { id: actor.id, name: actor.name },
            contact: { id: presentedTicket.contact.id, name: presentedTicket.contact.name },
            read: false,
            createdAt: mention.createdAt.toISOString(),
          },
        });
      }
      return message;
    },

    /** The signed-in user's newest mentions, and how many are unread. */
    async listMentions(actor: AuthUser) {
      const { rows, unreadCount } = await repo.listMentions(
        db,
        { id: actor.id, admin: isAdmin(actor), queueIds: actor.queueIds },
        MENTION_LIST_LIMIT,
      );
      return { mentions: rows.map(presentMention), unreadCount };
    },

    async markRead(actor: AuthUser, id: number): Promise<void> {
      const row = await repo.markMentionRead(db, actor.id, id, deps.clock.now());
      if (!row) throw new AppError("ERR_NO_MENTION_FOUND");
    },

    async markAllRead(actor: AuthUser, ticketId?: number): Promise<number> {
      return repo.markMentionsRead(db, actor.id, deps.clock.now(), ticketId);
    },
  };
}

export type NoteService = ReturnType<typeof createNoteService>;
