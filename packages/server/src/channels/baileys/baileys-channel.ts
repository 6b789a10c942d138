import makeWASocket, {
  type BaileysEventEmitter,
  Browsers,
  DisconnectReason,
  downloadMediaMessage,
  type GroupMetadata,
  makeCacheableSignalKeyStore,
  type UserFacingSocketConfig,
  type WAMessage,
  type WAMessageKey,
  type WASocket,
} from "@whiskeysockets/baileys";
import { AppError } from "../../lib/app-error.js";
import type { ChannelContext, ChannelFactory, ChannelSession, CloseReason } from "../channel.js";
import { createBaileysEvents } from "./baileys-events.js";
import { jidToNumber, numberToJid, unresolvedLids } from "./baileys-jid.js";
import { type BaileysLogger, baileysLogger } from "./baileys-logger.js";
import { messageKey, quotedMessage, toMessageContent } from "./baileys-outbound.js";
import { fromRaw, isBaileysRaw, toRaw } from "./baileys-translate.js";
import { clearDatabaseAuthState, type DatabaseAuthState, useDatabaseAuthState } from "./database-auth-state.js";
import { createGroupNames } from "./group-names.js";
import { storedKeys, storedMessage } from "./stored-message.js";

/** The part of Baileys' socket the adapter uses; tests substitute it at this boundary only. */
export type BaileysSocket = Pick<
  WASocket,
  | "sendMessage"
  | "readMessages"
  | "onWhatsApp"
  | "profilePictureUrl"
  | "rejectCall"
  | "groupMetadata"
  | "logout"
  | "end"
  | "updateMediaMessage"
> & {
  ev: BaileysEventEmitter;
  signalRepository?: { lidMapping: { getPNForLID(lid: string): Promise<string | null> } };
};

export interface BaileysChannelOptions {
  makeSocket?: (config: UserFacingSocketConfig) => BaileysSocket;
  /** Media download (Baileys' downloadMediaMessage); replaced in tests, where there is no network. */
  download?: (message: WAMessage, socket: BaileysSocket | undefined, logger: BaileysLogger) => Promise<Buffer>;
}

function statusCodeOf(error: unknown): number | undefined {
  const output = (error as { output?: { statusCode?: unknown } } | undefined)?.output;
  return typeof output?.statusCode === "number" ? output.statusCode : undefined;
}

const LOGGED_OUT_CODES = new Set<number>([
  DisconnectReason.loggedOut,
  DisconnectReason.forbidden,
  DisconnectReason.multideviceMismatch,
]);

const defaultDownload: NonNullable<BaileysChannelOptions["download"]> = (message, socket, logger) =>
  downloadMediaMessage(message, "buffer", {}, socket ? { reuploadRequest: socket.updateMediaMessage, logger } : undefined);

export function createBaileysChannelFactory(options: BaileysChannelOptions = {}): ChannelFactory {
  const makeSocket = options.makeSocket ?? ((config: UserFacingSocketConfig) => makeWASocket(config));
  const download = options.download ?? defaultDownload;
  return (context) => createBaileysSession(context, makeSocket, download);
}

/** The real WhatsApp transport (design §5). */
export const createBaileysChannel: ChannelFactory = createBaileysChannelFactory();

function createBaileysSession(
  context: ChannelContext,
  makeSocket: (config: UserFacingSocketConfig) => BaileysSocket,
  download: NonNullable<BaileysChannelOptions["download"]>,
): ChannelSession {
  const { db, whatsappId, handlers, logger } = context;
  const blogger = baileysLogger(context);
  let auth: DatabaseAuthState | undefined;
  let current: BaileysSocket | undefined;
  let open = false;
  /** Set by stop()/logout(): the close that follows was asked for and is not reported. */
  let stopping = false;
  let qrShown = false;

  const groups = createGroupNames(() => current, blogger);
  const fetchMedia = async (message: WAMessage) => {
    try {
      return await download(message, current, blogger);
    } catch (error) {
      throw new AppError("ERR_WAPP_DOWNLOAD_MEDIA", { message: String(error) });
    }
  };
  const resolveLids = async (socket: BaileysSocket, message: WAMessage) => {
    const lids = unresolvedLids(message.key);
    const map = new Map<string, string>();
    for (const lid of lids) {
      const pn = await socket.signalRepository?.lidMapping.getPNForLID(lid).catch(() => null);
      if (pn) map.set(lid, pn);
    }
    return map;
  };

  const events = createBaileysEvents({
    handlers,
    logger: blogger,
    fetchMedia,
    groupName: (jid) => groups.name(jid),
    groups,
    resolveLids: (message) => (current ? resolveLids(current, message) : Promise.resolve(new Map())),
  });

  function closed(reason: CloseReason, error?: unknown) {
    open = false;
    current = undefined;
    handlers.onClosed({ reason, error: error === undefined ? undefined : String(error) });
  }

  async function onClose(socket: BaileysSocket, error: unknown) {
    if (socket !== current) return;
    open = false;
    current = undefined;
    if (stopping) return;
    const code = statusCodeOf(error);
    if (code === DisconnectReason.restartRequired) {
      // WhatsApp asks for a fresh socket right after the QR is scanned: part of pairing, not a drop.
      await connect().catch((reconnectError) => closed("dropped", reconnectError));
      return;
    }
    if (code !== undefined && LOGGED_OUT_CODES.has(code)) {
      auth = undefined;
      await clearDatabaseAuthState(db, whatsappId).catch((e) => logger.error({ err: e, whatsappId }, "could not clear auth"));
      closed("loggedOut", error);
      return;
    }
    const unpaired = !auth?.state.creds.me;
    closed(qrShown && unpaired ? "qrTimeout" : "dropped", error);
  }

  async function connect() {
    auth ??= await useDatabaseAuthState(db, whatsappId);
    // stop() may have come while the auth state loaded: no socket may outlive it.
    if (stopping) return;
    const state = auth;
    const socket = makeSocket({
      auth: { creds: state.state.creds, keys: makeCacheableSignalKeyStore(state.state.keys, blogger) },
      logger: blogger,
      browser: Browsers.ubuntu("Zapdesk"),
      printQRInTerminal: false,
      markOnlineOnConnect: false,
      syncFullHistory: false,
      cachedGroupMetadata: async (jid: string): Promise<GroupMetadata | undefined> => groups.metadata(jid),
      // A recipient that failed to decrypt asks for a resend; after a restart only the database still has it.
      getMessage: (key) => storedMessage(db, whatsappId, key.id),
    });
    current = socket;
    const ev = socket.ev;
    const mine = () => socket === current && !stopping;
    ev.on("creds.update", () => {
      // After a logout the state is forgotten: a late update from the old socket must not re-pair it.
      if (state !== auth) return;
      state.saveCreds().catch((error) => logger.error({ err: error, whatsappId }, "could not save WhatsApp credentials"));
    });
    ev.on("connection.update", (update) => {
      if (!mine()) return;
      if (update.qr) {
        qrShown = true;
        handlers.onQr(update.qr);
      }
      if (update.isNewLogin) handlers.onStatus("PAIRING");
      if (update.connection === "open") {
        open = true;
        qrShown = false;
        handlers.onStatus("CONNECTED");
      }
      if (update.connection === "close") void onClose(socket, update.lastDisconnect?.error);
    });
    events.attach(ev, mine);
  }

  const live = () => {
    if (!current || !open) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    return current;
  };

  return {
    async start() {
      stopping = false;
      qrShown = false;
      await connect();
    },
    async stop() {
      stopping = true;
      const socket = current;
      current = undefined;
      open = false;
      await socket?.end(undefined).catch(() => {});
    },
    async logout() {
      stopping = true;
      const socket = current;
      current = undefined;
      open = false;
      if (socket) {
        await socket.logout().catch((error) => logger.warn({ err: error, whatsappId }, "WhatsApp logout failed"));
        await socket.end(undefined).catch(() => {});
      }
      auth = undefined;
      await clearDatabaseAuthState(db, whatsappId);
    },
    async send(message) {
      const socket = live();
      const jid = numberToJid(message.to, message.isGroup);
      const quoted = message.quoted ? quotedMessage(message.quoted, message.to, message.isGroup) : undefined;
      let sent: WAMessage | undefined;
      try {
        // Our own id, chosen before sending, so WhatsApp's echo of this message matches the stored row.
        const options = { ...(quoted ? { quoted } : {}), ...(message.id ? { messageId: message.id } : {}) };
        sent = await socket.sendMessage(jid, toMessageContent(message), Object.keys(options).length ? options : undefined);
      } catch (error) {
        throw new AppError("ERR_SENDING_WAPP_MSG", { message: String(error) });
      }
      if (!sent?.key.id) throw new AppError("ERR_SENDING_WAPP_MSG");
      const seconds = Number(sent.messageTimestamp ?? 0);
      return { wid: sent.key.id, timestamp: seconds ? new Date(seconds * 1000) : new Date(), raw: toRaw(sent) };
    },
    async deleteMessage(target) {
      const socket = live();
      try {
        await socket.sendMessage(numberToJid(target.chat, target.isGroup), { delete: messageKey(target) });
      } catch (error) {
        throw new AppError("ERR_DELETE_WAPP_MSG", { message: String(error) });
      }
    },
    async markRead(target) {
      const socket = live();
      const remoteJid = numberToJid(target.chat, target.isGroup);
      // A group read receipt must name each message's author, which only the stored key knows.
      const stored = target.isGroup ? await storedKeys(db, whatsappId, target.wids) : new Map<string, WAMessageKey>();
      await socket.readMessages(target.wids.map((id) => stored.get(id) ?? { remoteJid, id, fromMe: false }));
    },
    async checkNumber(number) {
      const socket = live();
      const digits = number.replace(/\D/g, "");
      let results: { jid: string; exists: boolean }[] | undefined;
      try {
        results = await socket.onWhatsApp(digits);
      } catch (error) {
        throw new AppError("ERR_WAPP_CHECK_CONTACT", { message: String(error) });
      }
      const found = results?.find((r) => r.exists);
      if (!found) throw new AppError("ERR_WAPP_INVALID_CONTACT");
      return jidToNumber(found.jid);
    },
    async profilePictureUrl(chat, isGroup) {
      if (!current || !open) return undefined;
      return current.profilePictureUrl(numberToJid(chat, isGroup), "image").catch(() => undefined);
    },
    async listContacts() {
      return events.contacts();
    },
    async rejectCall(call) {
      const socket = live();
      await socket.rejectCall(call.callId, events.callerJid(call.callId) ?? numberToJid(call.from, call.isGroup));
    },
    async downloadMedia(raw) {
      if (!isBaileysRaw(raw)) throw new AppError("ERR_WAPP_DOWNLOAD_MEDIA");
      return fetchMedia(fromRaw(raw));
    },
  };
}
