import { toNumber, type WAMessage, type WAMessageKey } from "@whiskeysockets/baileys";
import type { ChannelStore } from "../channel-store.js";
import { jidToNumber, unresolvedLids } from "./baileys-jid.js";
import type { BaileysLogger } from "./baileys-logger.js";
import { activeChats } from "./stored-message.js";

/** WhatsApp answers an on-demand history request with at most 50 messages. */
export const HISTORY_PAGE = 50;

export interface BackfillDeps {
  store: Pick<ChannelStore, "activeChats">;
  whatsappId: number;
  logger: BaileysLogger;
  /** Baileys' fetchMessageHistory on the live socket: the phone answers with messaging-history.set (ON_DEMAND). */
  fetchHistory(count: number, anchor: WAMessageKey, anchorTimestampMs: number): Promise<unknown>;
  /** Phone-number JIDs the LID store knows for these LIDs. */
  lookupLids(lids: string[]): Promise<Map<string, string>>;
}

export interface Backfill {
  /** The connection (re)opened: note, per chat with an active ticket, the newest message we hold. */
  opened(): void;
  /**
   * A live message arrived. The first one of an active chat after a reconnect anchors an
   * on-demand history request: the phone sends what came before it, which covers the gap.
   */
  live(message: WAMessage): void;
  /**
   * History messages worth storing: those of chats with an active ticket, newer than what the
   * ticket already had. Everything else would open tickets for months-old chats, reopen closed
   * ones, bump unread counts and send queue menus to customers who wrote long ago.
   */
  gap(messages: WAMessage[]): Promise<WAMessage[]>;
}

const secondsOf = (message: WAMessage) => toNumber(message.messageTimestamp) || 0;

/**
 * Every address a message's chat may be stored under: WhatsApp names a chat by LID or by number
 * (the other one in `remoteJidAlt`, or only in the LID store), and a contact is stored by number
 * once known, by LID before. The phone's history answer keys chats by LID more and more.
 */
function addressesOf(key: WAMessageKey, lidToPn: ReadonlyMap<string, string>): string[] {
  const jids = [key.remoteJid, key.remoteJidAlt, key.remoteJid ? lidToPn.get(key.remoteJid) : undefined];
  return jids.filter((jid): jid is string => !!jid).map(jidToNumber);
}

export function createBackfill(deps: BackfillDeps): Backfill {
  let horizons: Promise<Map<string, Date>> = Promise.resolve(new Map());
  let probed = new Set<string>();

  /** The LID store's numbers for the messages' chats known only by LID: one lookup for them all. */
  async function resolve(messages: WAMessage[]): Promise<Map<string, string>> {
    const lids = [...new Set(messages.flatMap((m) => (m.key.participant ? [] : unresolvedLids(m.key))))];
    return lids.length === 0 ? new Map() : deps.lookupLids(lids);
  }

  /** The chat's horizon, under whichever of its addresses the active chats hold. */
  const horizonOf = (known: Map<string, Date>, addresses: string[]) =>
    addresses.map((address) => known.get(address)).find((horizon) => horizon !== undefined);

  return {
    opened() {
      probed = new Set();
      horizons = activeChats(deps.store, deps.whatsappId).catch((error) => {
        deps.logger.warn({ err: error }, "could not read the active chats for backfill");
        return new Map();
      });
    },
    live(message) {
      if (!message.key.id || message.key.fromMe === undefined) return;
      // Claimed at once, under the address it came with, so that the chat's next messages do not ask again.
      const first = jidToNumber(message.key.remoteJid ?? "");
      if (probed.has(first)) return;
      probed.add(first);
      void (async () => {
        const [known, lidToPn] = await Promise.all([horizons, resolve([message])]);
        const addresses = addressesOf(message.key, lidToPn);
        // The chat's other addresses too: a later message may come under the other one.
        if (addresses.some((address) => address !== first && probed.has(address))) return;
        for (const address of addresses) probed.add(address);
        const horizon = horizonOf(known, addresses);
        // Nothing to fill unless the chat had a ticket going and this message is newer than its last one.
        if (!horizon || secondsOf(message) * 1000 <= horizon.getTime()) return;
        await deps.fetchHistory(HISTORY_PAGE, message.key, secondsOf(message) * 1000);
      })().catch((error) => deps.logger.warn({ err: error, chat: first }, "on-demand history request failed"));
    },
    async gap(messages) {
      const [known, lidToPn] = await Promise.all([horizons, resolve(messages)]);
      return messages.filter((message) => {
        const horizon = horizonOf(known, addressesOf(message.key, lidToPn));
        return horizon !== undefined && secondsOf(message) * 1000 >= horizon.getTime();
      });
    },
  };
}
