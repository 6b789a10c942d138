import type { Readable } from "node:stream";
import {
  type BaileysEventEmitter,
  type Contact,
  isJidGroup,
  isLidUser,
  isPnUser,
  type WACallEvent,
  type WAMessage,
} from "@whiskeysockets/baileys";
import type { ChannelHandlers, LidMapping, MessageUpdate, PhoneContact } from "../channel.js";
import type { InboundLog, LoggedEvent } from "../inbound-log.js";
import type { InboundSpool } from "../inbound-spool.js";
import type { Backfill } from "./baileys-backfill.js";
import { createDurableQueue } from "./baileys-inbox.js";
import { identityOf, isIgnoredChat, jidToNumber, keyIdentities, unresolvedLids } from "./baileys-jid.js";
import type { BaileysLogger } from "./baileys-logger.js";
import {
  type BaileysRaw,
  fromRaw,
  isUndecryptable,
  toAckUpdate,
  toInboundMessage,
  toProtocolUpdate,
  toRaw,
  toReceiptUpdate,
} from "./baileys-translate.js";
import { callIdentity, toInboundCall } from "./baileys-updates.js";
import type { GroupNames } from "./group-names.js";

export interface BaileysEventsDeps {
  handlers: ChannelHandlers;
  logger: BaileysLogger;
  inbox: InboundLog;
  spool?: InboundSpool;
  fetchMedia(message: WAMessage): Promise<Readable>;
  groups: GroupNames;
  /** Phone-number JIDs the LID store knows for these LIDs. */
  lookupLids(lids: string[]): Promise<Map<string, string>>;
  backfill: Backfill;
}

export interface BaileysEvents {
  /** Listen on a socket's emitter; `mine` tells whether that socket is still the session's. */
  attach(ev: BaileysEventEmitter, mine: () => boolean): void;
  /** Before any live event: process what the inbound log holds unfinished from a previous run. */
  replay(): void;
  /** Give events whose processing failed another try (periodically, while connected). */
  retryFailed(): void;
  contacts(): PhoneContact[];
  /** The JID a call came from, as rejectCall needs it (it may be a LID). */
  callerJid(callId: string): string | undefined;
  idle(): Promise<void>;
  /** The session stopped: no more timers (a spool waiting for the database is moved at the next start). */
  close(): void;
}

export const LOG_KINDS = { message: "baileys.message", call: "baileys.call", update: "baileys.update" } as const;

const MAX_CALLS = 200;
const MAX_IDENTITIES = 5_000;

/** A message with content, or a customer's message that could not be decrypted (stored as a placeholder). */
const isLoggable = (message: WAMessage) =>
  !!message.key.id && !isIgnoredChat(message.key.remoteJid) && (!!message.message || isUndecryptable(message));

/**
 * The inbound log's key of a message. A stub and the real copy that follows it (the sender's retry,
 * the phone's resend) share the key id: they are logged apart, so the real copy is never taken for
 * a redelivery of the stub; repeated stubs of one id are logged once.
 */
const logKey = (message: WAMessage) => `${isUndecryptable(message) ? "stub" : "msg"}:${message.key.id}`;

/**
 * What the socket emits, turned into handler calls. Messages, calls and refusals go through the
 * durable inbound log; one ordered queue per session keeps WhatsApp's order (a message before its
 * edit, an edit before its revoke), and a failure in the pipeline never throws into Baileys' emitter.
 */
export function createBaileysEvents(deps: BaileysEventsDeps): BaileysEvents {
  const { handlers, logger } = deps;
  const queue = createDurableQueue(deps.inbox, logger, deps.spool);
  const phoneBook = new Map<string, { name?: string; notify?: string }>();
  const callers = new Map<string, string>();
  const reported = new Set<string>();

  async function reportIdentity(mapping: LidMapping) {
    const key = `${mapping.lid}=${mapping.pn}`;
    if (reported.has(key)) return;
    await handlers.onIdentity(mapping);
    if (reported.size >= MAX_IDENTITIES) reported.delete(reported.values().next().value as string);
    reported.add(key);
  }
  const learn = (mappings: (LidMapping | undefined)[]) => {
    for (const mapping of mappings) if (mapping) queue.enqueue("identity", () => reportIdentity(mapping));
  };

  async function handleMessage(message: WAMessage) {
    for (const mapping of keyIdentities(message.key)) await reportIdentity(mapping);
    const lidToPn = await deps.lookupLids(unresolvedLids(message.key));
    const update = toProtocolUpdate(message, lidToPn);
    if (update) {
      await handlers.onUpdate(update);
      return;
    }
    const remoteJid = message.key.remoteJid ?? "";
    const groupName = isJidGroup(remoteJid) ? await deps.groups.name(remoteJid) : undefined;
    const inbound = toInboundMessage(message, { lidToPn, groupName, download: deps.fetchMedia });
    if (inbound) await handlers.onMessage(inbound);
  }

  /**
   * The pipeline's promise for a message that needs nothing looked up first (no identity to
   * report, no LID to resolve, not a group, not an edit, revoke or reaction): it can be handed
   * over without waiting for the messages before it, whose order the pipeline's queue keeps.
   * Undefined when the message must take `handleMessage` after the ones before it are stored.
   */
  function handOver(message: WAMessage): Promise<void> | undefined {
    const { key } = message;
    if (keyIdentities(key).some((m) => !reported.has(`${m.lid}=${m.pn}`))) return undefined;
    if (unresolvedLids(key).length > 0 || isJidGroup(key.remoteJid ?? "")) return undefined;
    try {
      if (toProtocolUpdate(message)) return undefined;
      const inbound = toInboundMessage(message, { download: deps.fetchMedia });
      return inbound ? handlers.onMessage(inbound) : Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Messages received together (one upsert, or upserts arriving while the previous ones are being
   * stored), in order. Consecutive plain messages reach the pipeline in the same tick, so they are
   * written as one batch; any other message waits until everything before it is stored, then runs
   * as it always did. One outcome per message, settled once it is stored (its batch committed).
   */
  async function handleMessages(list: WAMessage[]): Promise<PromiseSettledResult<void>[]> {
    const outcomes: Promise<void>[] = [];
    let handedOver: Promise<void>[] = [];
    for (const message of list) {
      let outcome = handOver(message);
      if (!outcome) {
        await Promise.allSettled(handedOver);
        handedOver = [];
        outcome = handleMessage(message);
        await outcome.catch(() => {});
      } else handedOver.push(outcome);
      outcomes.push(outcome);
    }
    return Promise.allSettled(outcomes);
  }

  function receiveMessages(messages: WAMessage[]) {
    queue.receiveAll(
      LOG_KINDS.message,
      messages.map((message) => ({ key: logKey(message), payload: toRaw(message), item: message })),
      handleMessages,
    );
  }

  async function handleCall(call: WACallEvent) {
    const identity = callIdentity(call);
    if (identity) await reportIdentity(identity);
    const lidToPn = call.callerPn ? undefined : await deps.lookupLids([call.from]);
    const inbound = toInboundCall(call, lidToPn);
    if (inbound) await handlers.onCall(inbound);
  }

  function receiveCall(call: WACallEvent) {
    callers.set(call.id, call.from);
    if (callers.size > MAX_CALLS) callers.delete(callers.keys().next().value as string);
    queue.receive(LOG_KINDS.call, `call:${call.id}`, call, () => handleCall(call));
  }

  function rememberContacts(list: Partial<Contact>[]) {
    for (const contact of list) {
      learn([identityOf(contact.id, contact.phoneNumber), identityOf(contact.id, contact.lid)]);
      const jid = contact.id && isLidUser(contact.id) ? contact.phoneNumber : (contact.id ?? contact.phoneNumber);
      if (!jid || !isPnUser(jid)) continue;
      const number = jidToNumber(jid);
      const known = phoneBook.get(number) ?? {};
      phoneBook.set(number, {
        name: contact.name || known.name,
        notify: contact.notify || contact.verifiedName || known.notify,
      });
    }
  }

  const participantIdentities = (participants: Partial<Contact>[] | undefined) =>
    learn((participants ?? []).flatMap((p) => [identityOf(p.id, p.phoneNumber), identityOf(p.id, p.lid)]));

  async function dispatch(event: LoggedEvent) {
    if (event.kind === LOG_KINDS.message) return handleMessage(fromRaw(event.payload as BaileysRaw));
    if (event.kind === LOG_KINDS.update) return handlers.onUpdate(event.payload as MessageUpdate);
    if (event.kind === LOG_KINDS.call) {
      const call = event.payload as WACallEvent;
      callers.set(call.id, call.from);
      return handleCall({ ...call, date: new Date(call.date) });
    }
    logger.warn({ kind: event.kind }, "unknown event in the inbound log");
  }

  /** Logged messages replayed after a restart go to the pipeline together, as when they arrived. */
  const replayedMessages = {
    kind: LOG_KINDS.message,
    async run(events: LoggedEvent[]): Promise<PromiseSettledResult<void>[]> {
      const parsed = events.map((event) => {
        try {
          return fromRaw(event.payload as BaileysRaw);
        } catch (error) {
          return error instanceof Error ? error : new Error(String(error));
        }
      });
      const ran = await handleMessages(parsed.filter((m): m is WAMessage => !(m instanceof Error)));
      return parsed.map((m) =>
        m instanceof Error ? { status: "rejected", reason: m } : (ran.shift() as PromiseSettledResult<void>),
      );
    },
  };

  return {
    attach(ev, mine) {
      ev.on("messages.upsert", ({ messages, type }) => {
        // "notify": arrived live (a phone's placeholder resend too, with a requestId); "append":
        // messages from the phone itself, or offline ones.
        if (type !== "notify" && type !== "append") return;
        const loggable = messages.filter(isLoggable);
        if (mine()) for (const message of loggable) deps.backfill.live(message);
        receiveMessages(loggable);
      });
      ev.on("messages.update", (updates) => {
        for (const item of updates) {
          const update = toAckUpdate(item);
          if (!update) continue;
          // A refusal is rare and the agent must see it; plain acks are many and the next one supersedes.
          if (update.ack === -1) {
            queue.receive(LOG_KINDS.update, `nack:${update.wid}`, update, () => handlers.onUpdate(update));
          } else {
            queue.enqueue("message update", () => handlers.onUpdate(update));
          }
        }
      });
      ev.on("message-receipt.update", (receipts) => {
        for (const item of receipts) {
          const update = toReceiptUpdate(item);
          if (update) queue.enqueue("receipt", () => handlers.onUpdate(update));
        }
      });
      ev.on("call", (calls) => {
        // Only the offer is a new call; ringing, accept, reject and terminate follow it.
        for (const item of calls) if (item.status === "offer") receiveCall(item);
      });
      ev.on("lid-mapping.update", ({ lid, pn }) => learn([identityOf(lid, pn)]));
      ev.on("contacts.upsert", (contacts) => rememberContacts(contacts));
      ev.on("contacts.update", (contacts) => rememberContacts(contacts));
      ev.on("messaging-history.set", ({ contacts, messages, lidPnMappings }) => {
        rememberContacts(contacts);
        learn((lidPnMappings ?? []).map((m) => identityOf(m.lid, m.pn)));
        // A stub in the phone's history is one the phone could not read either: no copy will follow.
        const loggable = messages.filter((m) => isLoggable(m) && !isUndecryptable(m));
        if (loggable.length === 0) return;
        queue.enqueue("history", async () => {
          receiveMessages(await deps.backfill.gap(loggable));
        });
      });
      ev.on("groups.upsert", (groups) => {
        for (const group of groups) {
          deps.groups.remember(group);
          participantIdentities(group.participants);
        }
      });
      ev.on("groups.update", (groups) => {
        for (const group of groups) deps.groups.changed(group);
      });
      ev.on("group-participants.update", ({ id, participants }) => {
        deps.groups.changed({ id });
        participantIdentities(participants);
      });
    },
    replay: () => queue.replay(dispatch, {}, replayedMessages),
    retryFailed: () => queue.replay(dispatch, { retriesOnly: true }, replayedMessages),
    contacts: () => [...phoneBook].map(([number, { name, notify }]) => ({ number, name: name || notify || number })),
    callerJid: (callId) => callers.get(callId),
    idle: () => queue.idle(),
    close: () => queue.close(),
  };
}
