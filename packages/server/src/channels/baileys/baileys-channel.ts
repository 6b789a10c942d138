import makeWASocket, {
  type BaileysEventEmitter,
  type UserFacingSocketConfig,
  type WAMessage,
  type WAMessageKey,
  type WASocket,
  type WAVersion,
} from "@whiskeysockets/baileys";
import type { ConnectionStatusReason } from "@zapdesk/core";
import { AppError } from "../../lib/app-error.js";
import type { ChannelContext, ChannelFactory, ChannelSession, CloseReason, SentMessage } from "../channel.js";
import { createBackfill } from "./baileys-backfill.js";
import { classifyClose, isPaired } from "./baileys-close.js";
import { socketConfig } from "./baileys-config.js";
import { createBaileysEvents } from "./baileys-events.js";
import { jidToNumber, numberToJid } from "./baileys-jid.js";
import { baileysLogger } from "./baileys-logger.js";
import { downloadStream, type MediaDownload } from "./baileys-media.js";
import { BAILEYS_SEND_TIMEOUT_MS, messageKey, quotedMessage, toSendable, withinTimeout } from "./baileys-outbound.js";
import { forgetUnconfirmedPairing, type Pairing, type PairingSocket, startPairing } from "./baileys-pairing.js";
import { type RestrictionQueries, watchRestrictions } from "./baileys-restrictions.js";
import { fromRaw, isBaileysRaw, toRaw } from "./baileys-translate.js";
import { createVersionSource, fetchWaWebVersion, type VersionFetcher, type VersionSource } from "./baileys-version.js";
import { type DatabaseAuthState, useDatabaseAuthState } from "./database-auth-state.js";
import { createGroupNames } from "./group-names.js";
import { pairingPhoneOf, storedKeys } from "./stored-message.js";

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
  | "sendPresenceUpdate"
  | "requestPairingCode"
  | "fetchMessageHistory"
> &
  Omit<PairingSocket, "requestPairingCode"> &
  RestrictionQueries & {
    ev: BaileysEventEmitter;
    signalRepository?: { lidMapping: { getPNForLID(lid: string): Promise<string | null> } };
  };

export interface BaileysChannelOptions {
  makeSocket?: (config: UserFacingSocketConfig) => BaileysSocket;
  /** Media download (Baileys' streaming download); replaced in tests, where there is no network. */
  download?: MediaDownload;
  /** Where the current WhatsApp Web version comes from (tests have no network). */
  fetchVersion?: VersionFetcher;
  /** The WhatsApp Web WebSocket to open instead of Baileys' own (WHATSAPP_WEB_URL). */
  webSocketUrl?: string;
  /** How long pairing waits on WhatsApp (its answer to a code request, pair-success); shorter in tests. */
  pairing?: { answerMs?: number; stallMs?: number };
  /** How long a send may take before its outcome is unknown (default BAILEYS_SEND_TIMEOUT_MS). */
  sendTimeoutMs?: number;
}

/** One per process: the fetched version is shared by every connection and reconnect. */
const sharedVersions = createVersionSource(fetchWaWebVersion);
const RETRY_FAILED_MS = 60_000;

export function createBaileysChannelFactory(options: BaileysChannelOptions = {}): ChannelFactory {
  const url = options.webSocketUrl;
  const makeSocket =
    options.makeSocket ?? ((config: UserFacingSocketConfig) => makeWASocket(url ? { ...config, waWebSocketUrl: url } : config));
  const versions = options.fetchVersion ? createVersionSource(options.fetchVersion) : sharedVersions;
  const download = options.download ?? downloadStream;
  const sendTimeoutMs = options.sendTimeoutMs ?? BAILEYS_SEND_TIMEOUT_MS;
  return (context) => createBaileysSession(context, { makeSocket, versions, download, pairing: options.pairing, sendTimeoutMs });
}

/** The real WhatsApp transport (design §5). */
export const createBaileysChannel: ChannelFactory = createBaileysChannelFactory();

interface SessionDeps {
  makeSocket(config: UserFacingSocketConfig): BaileysSocket;
  versions: VersionSource;
  download: MediaDownload;
  pairing: BaileysChannelOptions["pairing"];
  sendTimeoutMs: number;
}

function createBaileysSession(context: ChannelContext, deps: SessionDeps): ChannelSession {
  const { store, whatsappId, handlers, logger } = context;
  const blogger = baileysLogger(context);
  let auth: DatabaseAuthState | undefined;
  let current: BaileysSocket | undefined;
  let open = false;
  let retryTimer: NodeJS.Timeout | undefined;
  /** Set by stop()/logout(): the close that follows was asked for and is not reported. */
  let stopping = false;
  let qrShown = false;

  const groups = createGroupNames(() => current, blogger);
  const fetchMedia = async (message: WAMessage) => {
    try {
      return await deps.download(message, current, blogger);
    } catch (error) {
      throw new AppError("ERR_WAPP_DOWNLOAD_MEDIA", { message: String(error) });
    }
  };
  const lookupLids = async (lids: string[]) => {
    const map = new Map<string, string>();
    if (lids.length === 0) return map;
    // Independent reads of the LID store (a chat's and a group participant's): side by side.
    const pns = await Promise.all(lids.map((lid) => current?.signalRepository?.lidMapping.getPNForLID(lid).catch(() => null)));
    lids.forEach((lid, i) => {
      const pn = pns[i];
      if (pn) map.set(lid, pn);
    });
    return map;
  };
  const backfill = createBackfill({
    store,
    whatsappId,
    logger: blogger,
    fetchHistory: async (count, anchor, at) => current?.fetchMessageHistory(count, anchor, at),
    lookupLids,
  });
  const events = createBaileysEvents({
    handlers,
    logger: blogger,
    inbox: context.inbox,
    spool: context.spool,
    fetchMedia,
    groups,
    lookupLids,
    backfill,
  });

  function closed(reason: CloseReason, error?: unknown, statusReason?: ConnectionStatusReason) {
    open = false;
    current = undefined;
    handlers.onClosed({ reason, error: error === undefined ? undefined : String(error), statusReason });
  }

  async function onClose(socket: BaileysSocket, error: unknown, version: WAVersion, pairing: Pairing) {
    pairing.stop();
    if (socket !== current) return;
    open = false;
    current = undefined;
    if (stopping) return;
    const outcome = classifyClose(error, { paired: !!auth && isPaired(auth.state.creds), qrShown });
    switch (outcome.kind) {
      case "restart":
        // WhatsApp asks for a fresh socket right after pairing: part of pairing, not a drop.
        await connect().catch((reconnectError) => closed("dropped", reconnectError));
        return;
      case "loggedOut":
        auth = undefined;
        await store
          .auth(whatsappId)
          .clear()
          .catch((e) => logger.error({ err: e, whatsappId }, "could not clear auth"));
        closed("loggedOut", error);
        return;
      case "outdated": {
        // WhatsApp raised the minimum version: one attempt with a freshly fetched one, else the admin is told.
        const newer = await deps.versions.newerThan(version);
        if (newer && !stopping) await connect(newer).catch((reconnectError) => closed("dropped", reconnectError));
        else closed("terminal", error, "CLIENT_OUTDATED");
        return;
      }
      case "terminal":
        closed("terminal", error, outcome.statusReason);
        return;
      case "qrTimeout":
        closed("qrTimeout", error, pairing.closeReason());
        return;
      default:
        closed(outcome.kind, error);
    }
  }

  async function connect(versionOverride?: WAVersion) {
    auth ??= await useDatabaseAuthState(store.auth(whatsappId));
    const state = auth;
    const creds = state.state.creds;
    forgetUnconfirmedPairing(creds);
    const pairingPhone = isPaired(creds) ? undefined : await pairingPhoneOf(store, whatsappId);
    const version = versionOverride ?? (await deps.versions.current());
    // stop() may have come while the auth state or the version loaded: no socket may outlive it.
    if (stopping) return;
    const socket = deps.makeSocket(
      socketConfig({ store, whatsappId, auth: state, logger: blogger, version, groups, pairingByCode: !!pairingPhone }),
    );
    current = socket;
    const ev = socket.ev;
    const mine = () => socket === current && !stopping;
    const pairing = startPairing({
      socket,
      creds,
      saveCreds: () => state.saveCreds(),
      pairingPhone,
      current: mine,
      logger: blogger,
      onQr: handlers.onQr,
      onPairingCode: handlers.onPairingCode,
      fail: (statusReason, reason) => {
        if (!mine()) return;
        logger.warn({ whatsappId, statusReason, reason }, "pairing did not complete");
        closed("qrTimeout", reason, statusReason);
        socket.end(undefined).catch(() => {});
      },
      ...deps.pairing,
    });
    ev.on("creds.update", () => {
      // After a logout the state is forgotten: a late update from the old socket must not re-pair it.
      if (state !== auth) return;
      state.saveCreds().catch((error) => logger.error({ err: error, whatsappId }, "could not save WhatsApp credentials"));
    });
    ev.on("connection.update", (update) => {
      if (!mine()) return;
      if (update.qr) {
        qrShown = true;
        pairing.qr(update.qr);
      }
      if (update.isNewLogin) {
        pairing.paired();
        handlers.onStatus("PAIRING");
      }
      if (update.connection === "open") {
        open = true;
        qrShown = false;
        handlers.onStatus("CONNECTED");
        backfill.opened();
      }
      if (update.connection === "close") void onClose(socket, update.lastDisconnect?.error, version, pairing);
    });
    events.attach(ev, mine);
    watchRestrictions({ ev, socket, handlers, logger: blogger, mine });
  }

  const live = () => {
    if (!current || !open) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    return current;
  };

  async function end(how: "stop" | "logout") {
    stopping = true;
    clearInterval(retryTimer);
    events.close();
    const socket = current;
    current = undefined;
    open = false;
    if (socket && how === "logout") {
      await socket.logout().catch((error) => logger.warn({ err: error, whatsappId }, "WhatsApp logout failed"));
    }
    await socket?.end(undefined).catch(() => {});
  }

  return {
    async start() {
      stopping = false;
      qrShown = false;
      // What a previous run logged and never finished is processed before anything new.
      events.replay();
      clearInterval(retryTimer);
      // An event the pipeline failed on (the database away for a moment) gets another try soon, not only at the next start.
      retryTimer = setInterval(() => {
        if (open && !stopping) events.retryFailed();
      }, RETRY_FAILED_MS);
      retryTimer.unref?.();
      await connect();
    },
    stop: () => end("stop"),
    async logout() {
      await end("logout");
      auth = undefined;
      await store.auth(whatsappId).clear();
    },
    async send(message) {
      const socket = live();
      const jid = numberToJid(message.to, message.isGroup);
      const quoted = message.quoted ? quotedMessage(message.quoted, message.to, message.isGroup) : undefined;
      // Our own id, chosen before sending, so the stored row and any later copy match.
      const options = { ...(quoted ? { quoted } : {}), ...(message.id ? { messageId: message.id } : {}) };
      const sending = (async (): Promise<SentMessage> => {
        let sent: WAMessage | undefined;
        try {
          sent = await socket.sendMessage(jid, await toSendable(message), Object.keys(options).length ? options : undefined);
        } catch (error) {
          throw new AppError("ERR_SENDING_WAPP_MSG", { message: String(error) });
        }
        if (!sent?.key.id) throw new AppError("ERR_SENDING_WAPP_MSG");
        const seconds = Number(sent.messageTimestamp ?? 0);
        // WhatsApp Web has no separate server ack for its own sends: the answer is the acceptance.
        return { wid: sent.key.id, timestamp: seconds ? new Date(seconds * 1000) : new Date(), raw: toRaw(sent), ack: 1 };
      })();
      return withinTimeout(sending, deps.sendTimeoutMs, message.id);
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
      const stored = target.isGroup ? await storedKeys(store, whatsappId, target.wids) : new Map<string, WAMessageKey>();
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
    async sendPresence(target) {
      if (!current || !open) return;
      await current.sendPresenceUpdate(target.state, numberToJid(target.chat, target.isGroup)).catch(() => {});
    },
    async downloadMedia(raw) {
      if (!isBaileysRaw(raw)) throw new AppError("ERR_WAPP_DOWNLOAD_MEDIA");
      // The size cap is storage's: it stops the stream and keeps nothing past it.
      return fetchMedia(fromRaw(raw));
    },
  };
}
