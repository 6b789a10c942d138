import { toNumber, type WAMessage, type WAMessageKey } from "@whiskeysockets/baileys";
import type { Db } from "../../db/client.js";
import { chatJid, jidToNumber } from "./baileys-jid.js";
import type { BaileysLogger } from "./baileys-logger.js";
import { activeChats } from "./stored-message.js";

/** WhatsApp answers an on-demand history request with at most 50 messages. */
export const HISTORY_PAGE = 50;

export interface BackfillDeps {
  db: Db;
  whatsappId: number;
  logger: BaileysLogger;
  /** Baileys' fetchMessageHistory on the live socket: the phone answers with messaging-history.set (ON_DEMAND). */
  fetchHistory(count: number, anchor: WAMessageKey, anchorTimestampMs: number): Promise<unknown>;
}

export interface Backfill {
  /** The connection (re)opened: note, per chat with an active ticket, the newest message we hold. */
  opened(): void;
  /**
   * A live message arrived. The first one of an active chat after a reconnect anchors an
   * on-demand history request: the phone sends what came before it, which covers the gap.
   */
  live(message: WAMessage, lidToPn?: ReadonlyMap<string, string>): void;
  /**
   * History messages worth storing: those of chats with an active ticket, newer than what the
   * ticket already had. Everything else would open tickets for months-old chats, reopen closed
   * ones, bump unread counts and send queue menus to customers who wrote long ago.
   */
  gap(messages: WAMessage[], lidToPn?: ReadonlyMap<string, string>): Promise<WAMessage[]>;
}

const chatOf = (key: WAMessageKey, lidToPn?: ReadonlyMap<string, string>) => jidToNumber(chatJid(key, lidToPn));
const secondsOf = (message: WAMessage) => toNumber(message.messageTimestamp) || 0;

export function createBackfill(deps: BackfillDeps): Backfill {
  let horizons: Promise<Map<string, Date>> = Promise.resolve(new Map());
  let probed = new Set<string>();

  return {
    opened() {
      probed = new Set();
      horizons = activeChats(deps.db, deps.whatsappId).catch((error) => {
        deps.logger.warn({ err: error }, "could not read the active chats for backfill");
        return new Map();
      });
    },
    live(message, lidToPn) {
      if (!message.key.id || message.key.fromMe === undefined) return;
      const chat = chatOf(message.key, lidToPn);
      if (probed.has(chat)) return;
      probed.add(chat);
      void horizons
        .then(async (known) => {
          const horizon = known.get(chat);
          // Nothing to fill unless the chat had a ticket going and this message is newer than its last one.
          if (!horizon || secondsOf(message) * 1000 <= horizon.getTime()) return;
          await deps.fetchHistory(HISTORY_PAGE, message.key, secondsOf(message) * 1000);
        })
        .catch((error) => deps.logger.warn({ err: error, chat }, "on-demand history request failed"));
    },
    async gap(messages, lidToPn) {
      const known = await horizons;
      return messages.filter((message) => {
        const horizon = known.get(chatOf(message.key, lidToPn));
        return horizon !== undefined && secondsOf(message) * 1000 >= horizon.getTime();
      });
    },
  };
}
