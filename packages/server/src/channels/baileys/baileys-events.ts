import { type BaileysEventEmitter, type Contact, isJidGroup, isLidUser, isPnUser, type WAMessage } from "@whiskeysockets/baileys";
import type { ChannelHandlers, PhoneContact } from "../channel.js";
import { jidToNumber } from "./baileys-jid.js";
import type { BaileysLogger } from "./baileys-logger.js";
import { toAckUpdate, toInboundCall, toInboundMessage, toProtocolUpdate, toReceiptUpdate } from "./baileys-translate.js";
import type { GroupNames } from "./group-names.js";

export interface BaileysEventsDeps {
  handlers: ChannelHandlers;
  logger: BaileysLogger;
  fetchMedia(message: WAMessage): Promise<Buffer>;
  groupName(jid: string): Promise<string | undefined>;
  groups: GroupNames;
  resolveLids(message: WAMessage): Promise<Map<string, string>>;
}

export interface BaileysEvents {
  /** Listen on a socket's emitter; `mine` tells whether that socket is still the session's. */
  attach(ev: BaileysEventEmitter, mine: () => boolean): void;
  contacts(): PhoneContact[];
  /** The JID a call came from, as rejectCall needs it (it may be a LID). */
  callerJid(callId: string): string | undefined;
}

const MAX_CALLS = 200;

/**
 * What the socket emits, turned into handler calls. One queue per session keeps WhatsApp's
 * order (a message before its edit, an edit before its revoke), and a failure in the pipeline
 * is logged without ever throwing into Baileys' emitter.
 */
export function createBaileysEvents(deps: BaileysEventsDeps): BaileysEvents {
  const { handlers, logger } = deps;
  const phoneBook = new Map<string, { name?: string; notify?: string }>();
  const callers = new Map<string, string>();
  let queue: Promise<void> = Promise.resolve();

  const enqueue = (what: string, work: () => Promise<void>) => {
    queue = queue.then(work).catch((error) => logger.error({ err: error }, `could not process ${what}`));
  };

  async function handleMessage(message: WAMessage) {
    const lidToPn = await deps.resolveLids(message);
    const update = toProtocolUpdate(message, lidToPn);
    if (update) {
      await handlers.onUpdate(update);
      return;
    }
    const remoteJid = message.key.remoteJid ?? "";
    const groupName = isJidGroup(remoteJid) ? await deps.groupName(remoteJid) : undefined;
    const inbound = toInboundMessage(message, { lidToPn, groupName, download: deps.fetchMedia });
    if (inbound) await handlers.onMessage(inbound);
  }

  function rememberContacts(list: Partial<Contact>[]) {
    for (const contact of list) {
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

  return {
    attach(ev, mine) {
      ev.on("messages.upsert", ({ messages, type }) => {
        // "notify": arrived live; "append": our own sends and messages from the phone itself.
        if (!mine() || (type !== "notify" && type !== "append")) return;
        for (const message of messages) enqueue("message", () => handleMessage(message));
      });
      ev.on("messages.update", (updates) => {
        if (!mine()) return;
        for (const item of updates) {
          const update = toAckUpdate(item);
          if (update) enqueue("message update", () => handlers.onUpdate(update));
        }
      });
      ev.on("message-receipt.update", (receipts) => {
        if (!mine()) return;
        for (const item of receipts) {
          const update = toReceiptUpdate(item);
          if (update) enqueue("receipt", () => handlers.onUpdate(update));
        }
      });
      ev.on("call", (calls) => {
        if (!mine()) return;
        for (const item of calls) {
          const call = toInboundCall(item);
          if (!call) continue;
          callers.set(call.callId, item.from);
          if (callers.size > MAX_CALLS) callers.delete(callers.keys().next().value as string);
          enqueue("call", () => handlers.onCall(call));
        }
      });
      ev.on("contacts.upsert", (contacts) => rememberContacts(contacts));
      ev.on("contacts.update", (contacts) => rememberContacts(contacts));
      // History is not imported as messages (only live traffic makes tickets), but its contacts are the phone book.
      ev.on("messaging-history.set", ({ contacts }) => rememberContacts(contacts));
      ev.on("groups.upsert", (groups) => {
        for (const group of groups) deps.groups.remember(group);
      });
      ev.on("groups.update", (groups) => {
        for (const group of groups) deps.groups.remember(group);
      });
    },
    contacts: () => [...phoneBook].map(([number, { name, notify }]) => ({ number, name: name || notify || number })),
    callerJid: (callId) => callers.get(callId),
  };
}
