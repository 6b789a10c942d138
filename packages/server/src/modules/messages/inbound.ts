import { MEDIA_STATE } from "@zapdesk/core";
import { eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import {
  CALL_WID_PREFIX,
  type ChannelSession,
  type IdentityMapping,
  type InboundCall,
  type InboundMessage,
  type MessageUpdate,
} from "../../channels/channel.js";
import type { Db } from "../../db/client.js";
import { namedStatement, runNamed } from "../../db/prepared.js";
import { automationRules, contacts, settings } from "../../db/schema.js";
import type { Clock } from "../../lib/clock.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import { createTaskLimiter } from "../../lib/task-limiter.js";
import { type MediaStorage, MediaTooLargeError } from "../../media/storage.js";
import { storeStream } from "../../media/store-stream.js";
import type { Publisher } from "../../realtime/publisher.js";
import { type QuietSkips, receivedRulesOf } from "../automation-rules/rule-quiet.js";
import type { ContactIdentity } from "../contacts/contact-identity.js";
import { presentTicket } from "../tickets/tickets.presenter.js";
import * as ticketsRepo from "../tickets/tickets.repo.js";
import { scopeOf } from "../tickets/tickets.service.js";
import { findUpdateTarget } from "./inbound-adopt.js";
import { type BatchStored, isBatchable, NotBatchable, storeBatch } from "./inbound-batch.js";
import { callLine } from "./inbound-calls.js";
import { createBatchQueue } from "./inbound-queue.js";
import { isReadElsewhere, readElsewhere } from "./inbound-read.js";
import { createInboundStore, type Ingest } from "./inbound-store.js";
import { createUpdateApplier } from "./inbound-updates.js";
import { presentMessage } from "./messages.presenter.js";
import * as repo from "./messages.repo.js";
import { refreshPreview } from "./outbound.js";
import type { OutboundQueue } from "./outbound-queue.js";
import { locationBody } from "./queue-menu.js";

export const CALL_REJECTED_NOTICE =
  "As chamadas de voz e vídeo estão desabilitadas para este WhatsApp, favor enviar uma mensagem de texto. Obrigado!";

export interface InboundDeps {
  db: Db;
  events: Publisher;
  storage: MediaStorage;
  clock: Clock;
  logger: FastifyBaseLogger;
  identity: ContactIdentity;
  /** Largest inbound media downloaded, in bytes. */
  mediaMaxBytes: number;
  notifyOutbox: () => void;
  /** Queues the server's own answers (the rejected-call notice); after commit wakes the outbox and announces them. */
  outbound: OutboundQueue;
  /** The live session, if any (profile pictures, call rejection); never throws. */
  session(whatsappId: number): ChannelSession | undefined;
  /** Publish a stored message and its ticket (the messages service presents them). */
  announce(ticketId: number, messageId: number): Promise<void>;
  /**
   * Issue 23 §1: where the rules' skips of customers' messages no rule can fire on are counted; with
   * it, such messages are not queued for the rules' worker (automation-rules/rule-quiet.ts).
   */
  ruleSkips?: QuietSkips;
}

const SETTINGS_TTL_MS = 1000;
/** Media downloads run beside the connection's ordered events, a few at a time. */
const DOWNLOADS_AT_ONCE = 3;
/** Most messages of one connection written in one transaction. */
const BATCH_MAX = 200;
/** How long a connection with a menu or a bot takes the one-message road before its batch is tried again. */
const ONE_BY_ONE_MS = 30_000;

/** A channel message on its way to the store: what is stored, and the media to fetch afterwards. */
interface Arrival {
  item: Ingest;
  message: InboundMessage;
  download: boolean;
}

/**
 * The settings every message reads (cached a second below), sent by name like the batch's
 * statements, and in the same statement the enabled rules (issue 23 §1, rule-quiet.ts): each as
 * JSON of its id, row version, trigger, conditions (on "a message arrives" only) and action types,
 * under the key "rule".
 */
const inboundSettings = namedStatement(
  "inbound_settings",
  sql`select "key", "value" from ${settings} where "key" in ('CheckMsgIsGroup', 'timeCreateNewTicket', 'call')
    union all
    select 'rule', json_build_object('id', "id", 'version', xmin::text, 'trigger', "trigger",
      'conditions', case when "trigger" = 'messageReceived' then "conditions" end,
      'actions', (select coalesce(json_agg(a ->> 'type'), '[]'::json) from jsonb_array_elements("actions") a))::text
    from ${automationRules} where "enabled"`,
);

async function loadSettings(db: Db) {
  const rows = await runNamed<{ key: string; value: string }>(db, inboundSettings, {});
  const get = (key: string) => rows.find((r) => r.key === key)?.value;
  return {
    ignoreGroups: get("CheckMsgIsGroup") === "enabled",
    windowSeconds: Number(get("timeCreateNewTicket") ?? 7200) || 7200,
    acceptCalls: get("call") !== "disabled",
    receivedRules: receivedRulesOf(rows.filter((r) => r.key === "rule").map((r) => r.value)),
  };
}

export function createInboundPipeline(deps: InboundDeps) {
  const { db, logger } = deps;
  const pictureTried = new Set<number>();
  const { store } = createInboundStore({ db, clock: deps.clock, identity: deps.identity });
  const changesFor = createUpdateApplier({ db, identity: deps.identity, logger });
  const downloads = createTaskLimiter(DOWNLOADS_AT_ONCE);
  // Every message needs these settings; a second of staleness after an admin change is harmless.
  let cached: { at: number; value: Promise<Awaited<ReturnType<typeof loadSettings>>> } | undefined;
  const readSettings = () => {
    const now = Date.now();
    if (!cached || now - cached.at > SETTINGS_TTL_MS) cached = { at: now, value: loadSettings(db) };
    return cached.value;
  };

  /** Store one item and publish it; the stored message (new, or a placeholder now replaced) and its ticket. */
  async function ingest(whatsappId: number, item: Ingest): Promise<{ ticketId: number; messageId: number } | undefined> {
    const config = await readSettings();
    if (item.isGroup && config.ignoreGroups) return undefined;
    let stored: Awaited<ReturnType<typeof store>>;
    try {
      stored = await store(whatsappId, item, config.windowSeconds);
    } catch (error) {
      // Someone opened a ticket for this contact at the same instant: the next attempt finds it.
      if (!isUniqueViolation(error)) throw error;
      stored = await store(whatsappId, item, config.windowSeconds);
    }
    if (!stored) return undefined;
    if (!("messageIds" in stored)) {
      // The real copy of a placeholder: the same message, now with its content.
      await publishUpdated(stored.messageId, stored.ticketChanged);
      return stored;
    }
    if (stored.enqueued) deps.notifyOutbox();
    // Whoever could see the ticket before (a "Sem fila" row, a previous assignee) and cannot now drops it.
    if (stored.moved) deps.events.ticketMoved(stored.ticketId, stored.moved.from, stored.moved.to);
    if (stored.identity?.contactId !== undefined) await deps.identity.publish(stored.identity);
    for (const contactId of stored.consentContacts ?? []) deps.events.publish("contactConsent", { contactId });
    for (const id of stored.messageIds) await deps.announce(stored.ticketId, id);
    fetchPicture(whatsappId, stored.contactId, stored.chat, item.isGroup);
    return { ticketId: stored.ticketId, messageId: stored.messageIds[0] };
  }

  /** A changed message, and its ticket too when the change rewrote the ticket's preview or unread count. */
  async function publishUpdated(messageId: number, ticketChanged = false) {
    const joined = await repo.findJoinedMessage(db, messageId);
    if (!joined) return;
    const ticket = await ticketsRepo.findJoinedTicket(db, joined.message.ticketId);
    if (!ticket) return;
    const scope = scopeOf(ticket.ticket);
    deps.events.publishTicket("appMessage", { action: "update", message: presentMessage(joined) }, scope);
    if (ticketChanged) deps.events.publishTicket("ticket", { action: "update", ticket: presentTicket(ticket) }, scope);
  }

  /** The media of a stored message, fetched outside the connection's ordered queue. */
  async function download(messageId: number, message: InboundMessage) {
    const media = message.media;
    if (!media) return;
    let changes: Partial<repo.MessageRow>;
    try {
      // Streamed to storage under the cap: a sender who lied about the size fills neither memory nor disk.
      const saved = await storeStream(deps.storage, await media.download(), {
        filename: media.filename,
        claimedMime: media.mimetype,
        maxBytes: deps.mediaMaxBytes,
      });
      changes = {
        mediaPath: saved.path,
        mediaName: saved.name,
        mediaMime: saved.mime,
        mediaType: message.type === "sticker" ? "sticker" : saved.mediaType,
        mediaError: null,
      };
    } catch (error) {
      if (error instanceof MediaTooLargeError) {
        changes = { mediaError: MEDIA_STATE.tooLarge };
      } else {
        // Kept with a retryable error; the raw data lets the media-retry job try again later.
        logger.warn({ err: error, wid: message.wid }, "media download failed");
        changes = { mediaError: MEDIA_STATE.failed };
      }
    }
    await repo.updateMessage(db, messageId, changes);
    await publishUpdated(messageId);
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

  /** The media of a stored message is fetched beside the queue, a few at a time. */
  function scheduleDownload(messageId: number, message: InboundMessage) {
    downloads.run(() =>
      download(messageId, message).catch((error) => logger.error({ err: error, messageId }, "could not store media")),
    );
  }

  function arrivalOf(message: InboundMessage): Arrival {
    let body = message.body;
    if (message.type === "location" && message.location) body = locationBody(message.location);
    if (message.type === "vcard" && message.vcard) body = message.vcard;
    const media = message.media;
    const tooLarge = media?.size !== undefined && media.size > deps.mediaMaxBytes;
    const item: Ingest = {
      wid: message.wid,
      chat: message.chat,
      isGroup: message.isGroup,
      groupName: message.groupName,
      sender: message.sender,
      fromMe: message.fromMe,
      timestamp: message.timestamp,
      type: message.type,
      body,
      mediaError: media ? (tooLarge ? MEDIA_STATE.tooLarge : MEDIA_STATE.pending) : undefined,
      failedMedia: media ? { name: media.filename ?? null, mime: media.mimetype } : undefined,
      quotedWid: message.quotedWid,
      raw: message.raw,
    };
    return { item, message, download: !!media && !tooLarge };
  }

  /** One message through the full per-message path (anything the batch does not cover). */
  async function storeOne(whatsappId: number, arrival: Arrival): Promise<undefined> {
    const stored = await ingest(whatsappId, arrival.item);
    if (stored && arrival.download) scheduleDownload(stored.messageId, arrival.message);
    return undefined;
  }

  /**
   * Consecutive plain customer messages of a connection, in one transaction; events from the rows
   * in hand. A lone message too: the set-based statements are fewer round trips than the
   * one-message path (about 12 against 20), which is most of a quiet connection's latency.
   */
  async function storeMany(whatsappId: number, batch: Arrival[]): Promise<undefined[]> {
    const config = await readSettings();
    const stored = await storeBatch(
      db,
      deps.clock,
      whatsappId,
      batch.map((a) => a.item),
      config.windowSeconds,
      deps.ruleSkips ? { received: config.receivedRules, quiet: deps.ruleSkips } : undefined,
    );
    publishBatch(stored);
    for (const row of stored) {
      // Issue 22 §3: the consent question before the out-of-hours notice, as the outbox sends them.
      if (row?.consentPrompt !== undefined) await deps.announce(row.ticket.ticket.id, row.consentPrompt);
      if (row?.notice !== undefined) await deps.announce(row.ticket.ticket.id, row.notice);
      if (row?.consentChanged) deps.events.publish("contactConsent", { contactId: row.ticket.contact.id });
    }
    if (stored.some((row) => row?.notice !== undefined || row?.consentPrompt !== undefined)) {
      deps.notifyOutbox();
    }
    stored.forEach((row, i) => {
      if (!row) return;
      if (batch[i].download) scheduleDownload(row.message.message.id, batch[i].message);
      fetchPicture(whatsappId, row.ticket.contact.id, row.ticket.contact.number, false);
    });
    return batch.map(() => undefined);
  }

  /** Moves first, then each message with its ticket as it now is, then each ticket once. */
  function publishBatch(stored: (BatchStored | undefined)[]) {
    const rows = stored.filter((row): row is BatchStored => !!row);
    for (const { ticket, moved } of rows) if (moved) deps.events.ticketMoved(ticket.ticket.id, moved.from, moved.to);
    const presented = new Map(rows.map((row) => [row.ticket.ticket.id, presentTicket(row.ticket)]));
    for (const row of rows) {
      const ticket = presented.get(row.ticket.ticket.id) as ReturnType<typeof presentTicket>;
      deps.events.publishTicket(
        "appMessage",
        { action: "create", message: presentMessage(row.message), ticket, contact: ticket.contact },
        scopeOf(ticket),
      );
    }
    for (const ticket of presented.values()) {
      deps.events.publishTicket("ticket", { action: "update", ticket }, scopeOf(ticket));
    }
  }

  // A connection whose batch was refused for the connection's own reason (a menu or a bot talks
  // with each customer in turn) sends its next messages straight down the one-message road for a
  // while, instead of beginning a batch, upserting its contacts and rolling back each time. The
  // batch's own check stays the authority: once this lapses, a menu removed meanwhile batches again.
  const oneByOneUntil = new Map<number, number>();
  const arrivals = createBatchQueue<Arrival, undefined>({
    maxBatch: BATCH_MAX,
    batchable: (arrival, whatsappId) => isBatchable(arrival.item) && !((oneByOneUntil.get(whatsappId) ?? 0) > performance.now()),
    chatOf: (arrival) => arrival.item.chat,
    runBatch: storeMany,
    runOne: storeOne,
    onBatchFailed: (error, size, whatsappId) => {
      if (error instanceof NotBatchable && error.ofConnection) oneByOneUntil.set(whatsappId, performance.now() + ONE_BY_ONE_MS);
      if (!(error instanceof NotBatchable)) logger.warn({ err: error, size }, "batch not stored, storing one by one");
    },
  });

  return {
    /** An admin changed a setting here: read it afresh for the next message. */
    settingsChanged(): void {
      cached = undefined;
    },

    /** Resolves once every media download started so far has finished (tests, shutdown). */
    idle: async () => {
      await arrivals.idle();
      await downloads.idle();
    },

    /** Resolves once the message is stored (its batch committed): only then may its source be acknowledged. */
    async onMessage(whatsappId: number, message: InboundMessage): Promise<void> {
      await arrivals.push(whatsappId, arrivalOf(message));
    },

    async onUpdate(whatsappId: number, update: MessageUpdate): Promise<void> {
      // Read and write under the row's lock: two statuses handled at once (two processes of a
      // scaled-out install, a webhook and a retry) can never move an ack backwards.
      const changed = await db.transaction(async (tx) => {
        const target = await findUpdateTarget(tx, whatsappId, update);
        if (!target) return undefined;
        const { message } = target;
        const changes = await changesFor(message, update, tx);
        if (target.adopt) changes.wid = target.adopt;
        // The business phone read the chat: what it read is read here too.
        const unreadChanged = isReadElsewhere(message, update) && (await readElsewhere(tx, message));
        if (Object.keys(changes).length === 0) return unreadChanged ? { id: message.id, ticketChanged: true } : undefined;
        const updated = await repo.updateMessage(tx, message.id, changes);
        const textChanged = changes.isDeleted || changes.body !== undefined;
        const previewChanged = !!updated && !!textChanged && (await refreshPreview(tx, updated));
        return { id: message.id, ticketChanged: previewChanged || unreadChanged };
      });
      if (changed !== undefined) await publishUpdated(changed.id, changed.ticketChanged);
    },

    async onIdentity(_whatsappId: number, mapping: IdentityMapping): Promise<void> {
      await deps.identity.learn(mapping);
    },

    async onCall(whatsappId: number, call: InboundCall): Promise<void> {
      const config = await readSettings();
      const session = deps.session(whatsappId);
      if (!config.acceptCalls && session && !call.ended) {
        await session.rejectCall(call).catch((error) => logger.warn({ err: error }, "could not reject call"));
      }
      const wid = `${CALL_WID_PREFIX}${call.callId}`;
      const body = callLine(call);
      const stored = await ingest(whatsappId, {
        wid,
        chat: call.from,
        isGroup: call.isGroup,
        fromMe: false,
        timestamp: call.timestamp,
        type: "call",
        body,
      });
      // The end of a call already shown ringing: its line now says how it ended.
      // Line and preview change in one transaction: no reader sees the line ended and the ticket ringing.
      if (!stored && call.ended) {
        const changed = await db.transaction(async (tx) => {
          const line = await repo.findMessageByWid(tx, whatsappId, wid);
          if (!line || line.body === body) return undefined;
          const updated = await repo.updateMessage(tx, line.id, { body });
          return { id: line.id, ticketChanged: !!updated && (await refreshPreview(tx, updated)) };
        });
        if (changed) await publishUpdated(changed.id, changed.ticketChanged);
      }
      if (config.acceptCalls || !stored) return;
      const ticket = await ticketsRepo.findTicket(db, stored.ticketId);
      if (!ticket || (ticket.status !== "pending" && ticket.status !== "open")) return;
      const outgoing = deps.outbound.begin();
      await db.transaction((tx) => outgoing.enqueue(tx, { ticket, body: CALL_REJECTED_NOTICE, automation: "system" }));
      await outgoing.afterCommit();
    },
  };
}

export type InboundPipeline = ReturnType<typeof createInboundPipeline>;
