import { eq, inArray, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { ChannelSession, InboundCall, InboundMessage, MessageUpdate } from "../../channels/channel.js";
import type { Db } from "../../db/client.js";
import { contacts, settings, tickets } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import type { MediaStorage } from "../../media/storage.js";
import type { Publisher } from "../../realtime/publisher.js";
import { findConnection } from "../connections/connections.repo.js";
import * as ticketsRepo from "../tickets/tickets.repo.js";
import { scopeOf } from "../tickets/tickets.service.js";
import { presentMessage } from "./messages.presenter.js";
import * as repo from "./messages.repo.js";
import { enqueueOutbound, lastMessageText } from "./outbound.js";
import { locationBody, MENU_MIN_INTERVAL_MS, menuText, personalise, pickQueue } from "./queue-menu.js";
import { storeBuffer } from "./uploads.js";

export const CALL_REJECTED_NOTICE =
  "As chamadas de voz e vídeo estão desabilitadas para este WhatsApp, favor enviar uma mensagem de texto. Obrigado!";

export interface InboundDeps {
  db: Db;
  events: Publisher;
  storage: MediaStorage;
  clock: Clock;
  logger: FastifyBaseLogger;
  notifyOutbox: () => void;
  /** The live session, if any (profile pictures, call rejection); never throws. */
  session(whatsappId: number): ChannelSession | undefined;
  /** Publish a stored message and its ticket (the messages service presents them). */
  announce(ticketId: number, messageId: number): Promise<void>;
}

interface Ingest {
  wid: string;
  chat: string;
  isGroup: boolean;
  groupName?: string;
  sender?: { number: string; name?: string };
  fromMe: boolean;
  timestamp: Date;
  type: string;
  body: string;
  media?: { path: string; name: string; mime: string; mediaType: string };
  mediaError?: string;
  /** What WhatsApp said of media it could not deliver, kept for the retry. */
  failedMedia?: { name: string | null; mime: string };
  quotedWid?: string;
  raw?: unknown;
}

const SETTINGS_TTL_MS = 1000;

async function loadSettings(db: Db) {
  const rows = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(inArray(settings.key, ["CheckMsgIsGroup", "timeCreateNewTicket", "call"]));
  const get = (key: string) => rows.find((r) => r.key === key)?.value;
  return {
    ignoreGroups: get("CheckMsgIsGroup") === "enabled",
    windowSeconds: Number(get("timeCreateNewTicket") ?? 7200) || 7200,
    acceptCalls: get("call") !== "disabled",
  };
}

/** Insert or lock the contact row; locking it serialises every message of one chat, so bursts make one ticket. */
async function upsertContact(tx: Db, number: string, name: string, isGroup: boolean) {
  const [row] = await tx
    .insert(contacts)
    .values({ number, name: name || number, isGroup })
    .onConflictDoUpdate({
      target: contacts.number,
      // A group's subject may change; a person's name is the agents' to edit, unless nobody
      // named them yet (the name is still the bare number) and WhatsApp now tells us one.
      set: isGroup
        ? { name: sql`excluded.name` }
        : { name: sql`case when ${contacts.name} = ${contacts.number} then excluded.name else ${contacts.name} end` },
    })
    .returning();
  return row;
}

export function createInboundPipeline(deps: InboundDeps) {
  const { db, logger } = deps;
  const pictureTried = new Set<number>();
  // Every message needs these settings; a second of staleness after an admin change is harmless.
  let cached: { at: number; value: Promise<Awaited<ReturnType<typeof loadSettings>>> } | undefined;
  const readSettings = () => {
    const now = Date.now();
    if (!cached || now - cached.at > SETTINGS_TTL_MS) cached = { at: now, value: loadSettings(db) };
    return cached.value;
  };

  /** Contact, ticket and message in one transaction; returns what to announce, or nothing for a duplicate. */
  async function store(whatsappId: number, item: Ingest, windowSeconds: number) {
    return db.transaction(async (tx) => {
      const chatName = item.isGroup ? (item.groupName ?? item.chat) : item.fromMe ? item.chat : (item.sender?.name ?? item.chat);
      const contact = await upsertContact(tx, item.chat, chatName, item.isGroup);
      const author =
        item.isGroup && item.sender && !item.fromMe
          ? await upsertContact(tx, item.sender.number, item.sender.name ?? item.sender.number, false)
          : item.fromMe
            ? null
            : contact;

      let ticket = await ticketsRepo.findActiveTicket(tx, contact.id, whatsappId);
      if (!ticket) {
        const since = item.isGroup ? new Date(0) : new Date(deps.clock.now().getTime() - windowSeconds * 1000);
        const recent = await ticketsRepo.findRecentTicket(tx, contact.id, whatsappId, since);
        if (recent) {
          ticket = await ticketsRepo.updateTicket(tx, recent.id, { status: "pending", userId: null });
        } else {
          ticket = await ticketsRepo.insertTicketIfNoneActive(tx, {
            contactId: contact.id,
            whatsappId,
            status: "pending",
            isGroup: item.isGroup,
          });
        }
      }
      if (!ticket) throw new Error("ticket not created");

      const quoted = item.quotedWid ? await repo.findMessageByWid(tx, whatsappId, item.quotedWid) : undefined;
      const message = await repo.insertMessage(tx, {
        wid: item.wid,
        whatsappId,
        ticketId: ticket.id,
        contactId: author?.id ?? null,
        body: item.body,
        fromMe: item.fromMe,
        read: item.fromMe,
        ack: item.fromMe ? 1 : 0,
        mediaType: item.type,
        mediaPath: item.media?.path ?? null,
        mediaName: item.media?.name ?? item.failedMedia?.name ?? null,
        mediaMime: item.media?.mime ?? item.failedMedia?.mime ?? null,
        mediaError: item.mediaError ?? null,
        quotedMsgId: quoted?.id ?? null,
        raw: item.raw ?? null,
        createdAt: item.timestamp,
      });
      if (!message) return undefined;

      ticket = await ticketsRepo.updateTicket(tx, ticket.id, {
        lastMessage: lastMessageText(item.body, item.media?.name ?? (item.type !== "chat" ? item.type : "")),
        unreadMessages: item.fromMe ? ticket.unreadMessages : (sql`${tickets.unreadMessages} + 1` as unknown as number),
      });
      if (!ticket) throw new Error("ticket vanished");
      const bot = item.fromMe || item.isGroup ? [] : await routeToQueue(tx, ticket, contact.name, item.body);
      return { ticketId: ticket.id, messageIds: [message.id, ...bot], contactId: contact.id, enqueued: bot.length > 0 };
    });
  }

  /** Queue menu and greetings (design §4); returns the ids of the bot messages it queued. */
  async function routeToQueue(tx: Db, ticket: ticketsRepo.TicketRow, name: string, body: string) {
    if (ticket.queueId !== null || ticket.userId !== null || ticket.whatsappId === null) return [];
    const connection = await findConnection(tx, ticket.whatsappId);
    if (!connection || connection.queues.length === 0) return [];
    if (connection.queues.length === 1) {
      await ticketsRepo.updateTicket(tx, ticket.id, { queueId: connection.queues[0].id });
      return [];
    }
    const chosen = ticket.menuSentAt ? pickQueue(body, connection.queues) : undefined;
    if (chosen) {
      const updated = await ticketsRepo.updateTicket(tx, ticket.id, { queueId: chosen.id });
      if (!updated || !chosen.greetingMessage.trim()) return [];
      const greeting = await enqueueOutbound(tx, {
        ticket: updated,
        body: personalise(chosen.greetingMessage, name),
        fromBot: true,
      });
      return [greeting.id];
    }
    const now = deps.clock.now();
    if (ticket.menuSentAt && now.getTime() - ticket.menuSentAt.getTime() < MENU_MIN_INTERVAL_MS) return [];
    const menu = await enqueueOutbound(tx, {
      ticket,
      body: menuText(personalise(connection.greetingMessage, name), connection.queues),
      fromBot: true,
    });
    await ticketsRepo.updateTicket(tx, ticket.id, { menuSentAt: now });
    return [menu.id];
  }

  async function ingest(whatsappId: number, item: Ingest): Promise<void> {
    const config = await readSettings();
    if (item.isGroup && config.ignoreGroups) return;
    let stored: Awaited<ReturnType<typeof store>>;
    try {
      stored = await store(whatsappId, item, config.windowSeconds);
    } catch (error) {
      // Someone opened a ticket for this contact at the same instant: the next attempt finds it.
      if (!isUniqueViolation(error)) throw error;
      stored = await store(whatsappId, item, config.windowSeconds);
    }
    if (!stored) return;
    if (stored.enqueued) deps.notifyOutbox();
    for (const id of stored.messageIds) await deps.announce(stored.ticketId, id);
    fetchPicture(whatsappId, stored.contactId, item.chat, item.isGroup);
  }

  /** Profile pictures are fetched after the message is stored, never in its way. */
  function fetchPicture(whatsappId: number, contactId: number, chat: string, isGroup: boolean) {
    if (pictureTried.has(contactId)) return;
    pictureTried.add(contactId);
    const session = deps.session(whatsappId);
    if (!session) return;
    void (async () => {
      const url = await session.profilePictureUrl(chat, isGroup);
      if (!url) return;
      await db.update(contacts).set({ profilePicUrl: url, updatedAt: new Date() }).where(eq(contacts.id, contactId));
    })().catch((error) => logger.debug({ err: error }, "profile picture fetch failed"));
  }

  return {
    /** An admin changed a setting here: read it afresh for the next message. */
    settingsChanged(): void {
      cached = undefined;
    },

    async onMessage(whatsappId: number, message: InboundMessage): Promise<void> {
      // A redelivery is caught by the unique index anyway; checking first only saves a media download.
      if (message.media && (await repo.findMessageByWid(db, whatsappId, message.wid))) return;
      let body = message.body;
      if (message.type === "location" && message.location) body = locationBody(message.location);
      if (message.type === "vcard" && message.vcard) body = message.vcard;
      let media: Ingest["media"];
      let mediaError: string | undefined;
      let failedMedia: Ingest["failedMedia"];
      if (message.media) {
        try {
          const data = await message.media.download();
          media = await storeBuffer(deps.storage, data, message.media.filename, message.media.mimetype);
        } catch (error) {
          // The message is kept with a retryable error; its raw data allows a later download.
          logger.warn({ err: error, wid: message.wid }, "media download failed");
          mediaError = "ERR_WAPP_DOWNLOAD_MEDIA";
          failedMedia = { name: message.media.filename ?? null, mime: message.media.mimetype };
        }
      }
      await ingest(whatsappId, {
        wid: message.wid,
        chat: message.chat,
        isGroup: message.isGroup,
        groupName: message.groupName,
        sender: message.sender,
        fromMe: message.fromMe,
        timestamp: message.timestamp,
        type: message.type,
        body,
        media: media ? { ...media, mediaType: message.type === "sticker" ? "sticker" : media.mediaType } : undefined,
        mediaError,
        failedMedia,
        quotedWid: message.quotedWid,
        raw: message.raw,
      });
    },

    async onUpdate(whatsappId: number, update: MessageUpdate): Promise<void> {
      const message = await repo.findMessageByWid(db, whatsappId, update.wid);
      if (!message) return;
      const changes: Partial<repo.MessageRow> = {};
      if (update.ack !== undefined && update.ack > message.ack) changes.ack = update.ack;
      if (update.editedBody !== undefined && update.editedBody !== message.body) {
        changes.body = update.editedBody;
        changes.isEdited = true;
      }
      if (update.revoked && !message.isDeleted) changes.isDeleted = true;
      if (Object.keys(changes).length === 0) return;
      await repo.updateMessage(db, message.id, changes);
      const ticket = await ticketsRepo.findTicket(db, message.ticketId);
      const joined = await repo.findJoinedMessage(db, message.id);
      if (!ticket || !joined) return;
      deps.events.publishTicket("appMessage", { action: "update", message: presentMessage(joined) }, scopeOf(ticket));
    },

    async onCall(whatsappId: number, call: InboundCall): Promise<void> {
      const config = await readSettings();
      const session = deps.session(whatsappId);
      if (!config.acceptCalls && session) {
        await session.rejectCall(call).catch((error) => logger.warn({ err: error }, "could not reject call"));
      }
      await ingest(whatsappId, {
        wid: `call-${call.callId}`,
        chat: call.from,
        isGroup: call.isGroup,
        fromMe: false,
        timestamp: call.timestamp,
        type: "call",
        body: call.isVideo ? "Chamada de vídeo recebida" : "Chamada de voz recebida",
      });
      if (config.acceptCalls) return;
      const [contact] = await db.select().from(contacts).where(eq(contacts.number, call.from));
      if (!contact) return;
      const ticket = await ticketsRepo.findActiveTicket(db, contact.id, whatsappId);
      if (!ticket) return;
      const notice = await db.transaction((tx) => enqueueOutbound(tx, { ticket, body: CALL_REJECTED_NOTICE, fromBot: true }));
      deps.notifyOutbox();
      await deps.announce(ticket.id, notice.id);
    },
  };
}

export type InboundPipeline = ReturnType<typeof createInboundPipeline>;
