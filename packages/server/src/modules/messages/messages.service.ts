import {
  ACK_FAILED,
  CHANNEL_CAPABILITIES,
  type ConnectionProvider,
  isAdmin,
  MEDIA_STATE,
  type Message,
  type MessageSendInput,
  OUTBOX_NOTICES,
  PAGE_SIZE,
  SERVICE_WINDOW_MS,
  type Ticket,
} from "@zapdesk/core";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { ChannelSession } from "../../channels/channel.js";
import type { Db } from "../../db/client.js";
import { readTogether, runRead } from "../../db/prepared.js";
import { outbox, whatsapps } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import type { Clock } from "../../lib/clock.js";
import type { MediaStorage, ServedFile } from "../../media/storage.js";
import type { Publisher } from "../../realtime/publisher.js";
import { recordAudit } from "../audit/audit.js";
import * as ticketsRepo from "../tickets/tickets.repo.js";
import { scopeOf, type TicketService } from "../tickets/tickets.service.js";
import type { AuthUser } from "../users/users.repo.js";
import { presentMessage } from "./messages.presenter.js";
import * as repo from "./messages.repo.js";
import { newWid, refreshPreview } from "./outbound.js";
import type { OutboundQueue } from "./outbound-queue.js";
import { NO_UPLOAD, type PendingUpload, removeStored, storeUpload, type UploadedMedia } from "./uploads.js";

export interface MessageServiceDeps {
  db: Db;
  clock: Clock;
  events: Publisher;
  tickets: TicketService;
  storage: MediaStorage;
  /** Wakes the outbox for a retried message (new ones go through `outbound`). */
  notifyOutbox: () => void;
  outbound: OutboundQueue;
  /** The live session of a connection, or throw ERR_WAPP_NOT_INITIALIZED. */
  session(whatsappId: number): ChannelSession;
}

const TYPING_REPEAT_MS = 4000;

/** Whether a ticket's connection may write free-form now (the Cloud API's 24-hour window). */
export function windowOpen(provider: ConnectionProvider, lastInboundAt: Date | null, now = Date.now()): boolean {
  if (!CHANNEL_CAPABILITIES[provider].serviceWindow) return true;
  return !!lastInboundAt && now - lastInboundAt.getTime() < SERVICE_WINDOW_MS;
}

/** How long a delete waits for a send of the same message already under way. */
const SENDING_WAIT_MS = 5_000;

export function createMessageService(deps: MessageServiceDeps) {
  const { db, events, tickets } = deps;
  const lastTyping = new Map<number, number>();

  async function providerOf(whatsappId: number): Promise<ConnectionProvider | undefined> {
    const [row] = await db.select({ provider: whatsapps.provider }).from(whatsapps).where(eq(whatsapps.id, whatsappId));
    return row?.provider as ConnectionProvider | undefined;
  }

  async function present(id: number): Promise<Message> {
    const row = await repo.findJoinedMessage(db, id);
    if (!row) throw new AppError("ERR_NO_MESSAGE_FOUND");
    return presentMessage(row);
  }

  /** Publish a new outbound message and the ticket it moved. */
  async function announceCreated(ticketId: number, messageIds: number[]) {
    const ticket = await tickets.present(ticketId);
    for (const id of messageIds) {
      events.publishTicket(
        "appMessage",
        { action: "create", message: await present(id), ticket, contact: ticket.contact },
        scopeOf(ticket),
      );
    }
    events.publishTicket("ticket", { action: "update", ticket }, scopeOf(ticket));
  }

  /**
   * Whether the actor may send on the ticket now: access, state, connection, window and quote. Checked
   * before a request's files are stored, so that a refused send leaves nothing behind.
   */
  async function sendable(actor: AuthUser, ticketId: number, quotedMsgId: number | null = null) {
    const ticket = await tickets.accessible(actor, ticketId);
    if (ticket.status !== "open") {
      throw new AppError("ERR_TICKET_NOT_OPEN");
    }
    if (ticket.whatsappId === null) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    const provider = await providerOf(ticket.whatsappId);
    if (provider && !windowOpen(provider, ticket.lastInboundAt, deps.clock.now().getTime())) {
      throw new AppError("ERR_WAPP_WINDOW_CLOSED");
    }
    if (quotedMsgId) {
      const quoted = await repo.findMessage(db, quotedMsgId);
      // A private note is never quoted to the customer: its text would leave with the quote.
      if (!quoted || quoted.ticketId !== ticketId || quoted.isNote) {
        throw new AppError("ERR_VALIDATION", {
          details: [{ path: ["quotedMsg", "id"], message: "Not a message of this ticket" }],
        });
      }
    }
    return ticket;
  }

  /** Store the upload and run `work` with it; when `work` fails, the files no message refers to are removed. */
  async function withUpload<T>(upload: PendingUpload, work: (medias: UploadedMedia[]) => Promise<T>): Promise<T> {
    return withStored(await storeUpload(deps.storage, upload), work);
  }

  /** Run `work` with files already stored (streamed in); when it fails, the files no message refers to are removed. */
  async function withStored<T>(medias: UploadedMedia[], work: (medias: UploadedMedia[]) => Promise<T>): Promise<T> {
    try {
      return await work(medias);
    } catch (error) {
      const paths = medias.map((m) => m.path);
      // When the database cannot say, the files stay: wasted space rather than a message without its media.
      const kept = await repo.referencedMediaPaths(db, paths).catch(() => undefined);
      if (kept)
        await removeStored(
          deps.storage,
          paths.filter((path) => !kept.has(path)),
        );
      throw error;
    }
  }

  /** A message's stored file with the type and name recorded for it; undefined when the file is missing. */
  async function openFile(message: repo.MessageRow, path: string): Promise<ServedFile | undefined> {
    const file = await deps.storage.open(path);
    return file && { ...file, mime: message.mediaMime ?? "application/octet-stream", name: message.mediaName ?? "file" };
  }

  /**
   * Takes a message back from the outbox before it leaves: true when it was still waiting there
   * (nothing reached WhatsApp), false when it is gone from the outbox (sent, refused, or unconfirmed:
   * a revoke is due). A send under way right now is waited for a moment, never raced: deleting its
   * row mid-send would mark deleted here a message the customer still receives.
   */
  async function cancelUnsent(id: number): Promise<boolean> {
    const deadline = Date.now() + SENDING_WAIT_MS;
    for (;;) {
      const now = deps.clock.now();
      const cancelled = await db
        .delete(outbox)
        .where(and(eq(outbox.messageId, id), or(isNull(outbox.lockedUntil), lt(outbox.lockedUntil, now))))
        .returning({ id: outbox.messageId });
      if (cancelled.length > 0) return true;
      const [sending] = await db.select({ id: outbox.messageId }).from(outbox).where(eq(outbox.messageId, id));
      if (!sending) return false;
      if (Date.now() >= deadline) throw new AppError("ERR_MESSAGE_SENDING");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  return {
    present,
    announceCreated,

    /** Publish a message that changed (media recovered, ack, edit). */
    async announceUpdated(id: number) {
      const message = await present(id);
      const ticket = await tickets.present(message.ticketId);
      events.publishTicket("appMessage", { action: "update", message }, scopeOf(ticket));
    },

    /**
     * Page 1 holds the newest 20; each page is in chronological order. `around`: the page holding
     * that message (a search result opens the chat on it).
     */
    async list(actor: AuthUser, ticketId: number, query: { pageNumber: number; around?: number }) {
      const limit = PAGE_SIZE.messages;
      let { pageNumber } = query;
      let ticket: Ticket;
      let page: { rows: repo.JoinedMessage[]; count: number | undefined };
      // Issue 24 item 2: the ticket and what the chat shows of it in one round trip. The messages'
      // statements read nothing of a ticket the actor may not reach (messages.repo.ts).
      const reader = { id: actor.id, admin: isAdmin(actor), queueIds: actor.queueIds };
      if (query.around === undefined) {
        const [row, read] = await readTogether(db, [
          ticketsRepo.presentableTicketRead(db, ticketId),
          repo.ticketMessagesRead(db, ticketId, { limit, offset: (pageNumber - 1) * limit }, reader),
        ]);
        ticket = tickets.presentReachable(actor, row);
        page = read;
      } else {
        // Opened on a message (a search's result): the ticket and the message's place together, then its page.
        const [row, newer] = await readTogether(db, [
          ticketsRepo.presentableTicketRead(db, ticketId),
          repo.newerMessagesRead(db, ticketId, query.around, reader),
        ]);
        ticket = tickets.presentReachable(actor, row);
        if (newer === undefined) throw new AppError("ERR_NO_MESSAGE_FOUND");
        pageNumber = Math.floor(newer / limit) + 1;
        page = await runRead(repo.ticketMessagesRead(db, ticketId, { limit, offset: (pageNumber - 1) * limit }, reader));
      }
      const { rows } = page;
      const count = page.count ?? (await repo.countTicketMessages(db, ticketId));
      return {
        messages: rows.reverse().map(presentMessage),
        ticket,
        count,
        hasMore: count > pageNumber * limit,
        hasNewer: pageNumber > 1,
        pageNumber,
      };
    },

    sendable,
    withUpload,
    withStored,

    /** Store first (ack 0), send through the outbox after commit; files are stored only once every check passed. */
    async send(
      actor: AuthUser,
      ticketId: number,
      input: MessageSendInput | { body: string; quotedMsg?: null },
      upload: PendingUpload = NO_UPLOAD,
    ) {
      const quotedMsgId = "quotedMsg" in input && input.quotedMsg ? input.quotedMsg.id : null;
      const ticket = await sendable(actor, ticketId, quotedMsgId);
      const outgoing = deps.outbound.begin();
      const ids = await withUpload(upload, (medias) =>
        db.transaction(async (tx) => {
          const created: number[] = [];
          if (medias.length === 0) {
            const parts = await outgoing.enqueue(tx, { ticket, body: input.body, userId: actor.id, quotedMsgId });
            created.push(...parts.map((row) => row.id));
          }
          for (const [index, media] of medias.entries()) {
            const parts = await outgoing.enqueue(tx, {
              ticket,
              body: index === 0 ? input.body : "",
              userId: actor.id,
              quotedMsgId: index === 0 ? quotedMsgId : null,
              media,
            });
            created.push(...parts.map((row) => row.id));
          }
          return created;
        }),
      );
      // The answer shows the message as stored (ack 0), whatever the outbox does next.
      const stored = await Promise.all(ids.map(present));
      await outgoing.afterCommit();
      return stored;
    },

    /**
     * Send again a message WhatsApp refused (ack -1), or one whose send was never answered (the
     * agent decides it did not arrive): back to the outbox under a fresh id.
     */
    async retry(actor: AuthUser, id: number): Promise<Message> {
      const message = await repo.findMessage(db, id);
      if (!message) throw new AppError("ERR_NO_MESSAGE_FOUND");
      const ticket = await tickets.accessible(actor, message.ticketId).catch(() => {
        throw new AppError("ERR_NO_MESSAGE_FOUND");
      });
      const unconfirmed = message.ack === 0 && message.errorCode === OUTBOX_NOTICES.outcomeUnknown;
      if (!message.fromMe || (message.ack !== ACK_FAILED && !unconfirmed) || message.isDeleted) {
        throw new AppError("ERR_MESSAGE_NOT_FAILED");
      }
      await db.transaction(async (tx) => {
        await repo.updateMessage(tx, id, { ack: 0, errorCode: null, errorTitle: null, wid: newWid() });
        await tx.insert(outbox).values({ messageId: id }).onConflictDoNothing();
      });
      deps.notifyOutbox();
      const presented = await present(id);
      events.publishTicket("appMessage", { action: "update", message: presented }, scopeOf(ticket));
      return presented;
    },

    /** The agent types in a ticket: the customer sees "typing…" (throttled; best effort, never an error). */
    async typing(actor: AuthUser, ticketId: number, state: "composing" | "paused"): Promise<void> {
      const now = Date.now();
      if (state === "composing" && now - (lastTyping.get(ticketId) ?? 0) < TYPING_REPEAT_MS) return;
      const ticket = await tickets.accessible(actor, ticketId).catch(() => undefined);
      if (ticket?.status !== "open" || ticket.whatsappId === null) return;
      lastTyping.set(ticketId, state === "composing" ? now : 0);
      if (lastTyping.size > 10_000) lastTyping.delete(lastTyping.keys().next().value as number);
      const joined = await ticketsRepo.findJoinedTicket(db, ticketId);
      if (!joined) return;
      let session: ChannelSession;
      try {
        session = deps.session(ticket.whatsappId);
      } catch {
        return;
      }
      await session.sendPresence({ chat: joined.contact.number, isGroup: ticket.isGroup, state }).catch(() => {});
    },

    /** Delete for everyone: only our own side's messages, and the revoke must reach WhatsApp. */
    async remove(actor: AuthUser, id: number): Promise<Message> {
      const message = await repo.findMessage(db, id);
      if (!message) throw new AppError("ERR_NO_MESSAGE_FOUND");
      const ticket = await tickets.accessible(actor, message.ticketId).catch(() => {
        throw new AppError("ERR_NO_MESSAGE_FOUND");
      });
      if (!message.fromMe) throw new AppError("ERR_NO_PERMISSION", { message: "Only your own messages can be deleted." });
      // A private note is its author's (or an admin's) to delete; it never reached WhatsApp.
      if (message.isNote && message.userId !== actor.id && !isAdmin(actor)) {
        throw new AppError("ERR_NO_PERMISSION", { message: "Only the author of a note can delete it." });
      }
      if (message.isDeleted) return present(id);
      const cancelled = await cancelUnsent(id);
      // A send that finished meanwhile may have given the message its provider's id.
      const current = cancelled ? message : ((await repo.findMessage(db, id)) ?? message);
      if (!cancelled && current.wid && current.whatsappId !== null) {
        // The web hides the action where the connection cannot do it; the server refuses it all the same.
        const provider = await providerOf(current.whatsappId);
        if (provider && !CHANNEL_CAPABILITIES[provider].deleteForEveryone) throw new AppError("ERR_WAPP_NOT_SUPPORTED");
        const contact = await ticketsRepo.findJoinedTicket(db, ticket.id);
        try {
          await deps.session(current.whatsappId).deleteMessage({
            chat: contact?.contact.number ?? "",
            isGroup: ticket.isGroup,
            wid: current.wid,
            fromMe: true,
            raw: current.raw ?? undefined,
          });
        } catch (error) {
          if (error instanceof AppError && error.code === "ERR_WAPP_NOT_INITIALIZED") throw error;
          throw new AppError("ERR_DELETE_WAPP_MSG");
        }
      }
      const previewChanged = await db.transaction(async (tx) => {
        const deleted = await repo.updateMessage(tx, id, { isDeleted: true });
        if (deleted) {
          await recordAudit(tx, {
            action: "message.deleted",
            targetType: "message",
            targetId: id,
            details: { ticketId: ticket.id, note: message.isNote },
          });
        }
        return !!deleted && (await refreshPreview(tx, deleted));
      });
      const presented = await present(id);
      events.publishTicket("appMessage", { action: "update", message: presented }, scopeOf(ticket));
      if (previewChanged) await tickets.announce(ticket.id);
      return presented;
    },

    /** The stored file of a message, for the authenticated media route. */
    async media(actor: AuthUser, id: number): Promise<ServedFile> {
      const message = await repo.findMessage(db, id);
      if (!message?.mediaPath) throw new AppError("ERR_NO_MESSAGE_FOUND");
      await tickets.accessible(actor, message.ticketId).catch(() => {
        throw new AppError("ERR_NO_MESSAGE_FOUND");
      });
      const file = await openFile(message, message.mediaPath);
      if (!file) throw new AppError("ERR_NO_MESSAGE_FOUND");
      return file;
    },

    /**
     * The file a signed link names (media/media-links.ts): the link is the permission, for this one
     * message. A message deleted (by the customer or an agent) or erased, or whose file a retention
     * policy removed, is gone for the link too: 410 ERR_MEDIA_GONE.
     */
    async linkedMedia(id: number): Promise<ServedFile> {
      const message = await repo.findMessage(db, id);
      if (!message || message.isDeleted || message.mediaError === MEDIA_STATE.removedByRetention) {
        throw new AppError("ERR_MEDIA_GONE");
      }
      if (!message.mediaPath) throw new AppError("ERR_NO_MESSAGE_FOUND");
      const file = await openFile(message, message.mediaPath);
      if (!file) throw new AppError("ERR_MEDIA_GONE");
      return file;
    },
  };
}

export type MessageService = ReturnType<typeof createMessageService>;
