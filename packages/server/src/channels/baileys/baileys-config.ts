import {
  Browsers,
  type GroupMetadata,
  makeCacheableSignalKeyStore,
  type UserFacingSocketConfig,
  type WAVersion,
} from "@whiskeysockets/baileys";
import type { ChannelStore } from "../channel-store.js";
import { isIgnoredChat } from "./baileys-jid.js";
import type { BaileysLogger } from "./baileys-logger.js";
import { PAIRING_CODE_BROWSER } from "./baileys-pairing.js";
import type { DatabaseAuthState } from "./database-auth-state.js";
import type { GroupNames } from "./group-names.js";
import { storedMessage } from "./stored-message.js";

export interface SocketConfigInput {
  store: Pick<ChannelStore, "messageRaws">;
  whatsappId: number;
  auth: DatabaseAuthState;
  logger: BaileysLogger;
  version: WAVersion;
  groups: GroupNames;
  /** Pairing by phone code: WhatsApp only accepts a real browser and OS in that request. */
  pairingByCode?: boolean;
}

/** How every Zapdesk socket is configured; each choice below is one a support inbox needs. */
export function socketConfig(input: SocketConfigInput): UserFacingSocketConfig {
  const { store, whatsappId, auth, logger } = input;
  return {
    auth: { creds: auth.state.creds, keys: makeCacheableSignalKeyStore(auth.state.keys, logger) },
    logger,
    // The version WhatsApp Web serves today (fetched at connect, never older than Baileys' own).
    version: input.version,
    // The phone lists a QR-linked device under this name; a code request must name a real browser.
    browser: input.pairingByCode ? PAIRING_CODE_BROWSER : Browsers.ubuntu("Zapdesk"),
    printQRInTerminal: false,
    // The phone keeps getting notifications while Zapdesk is connected.
    markOnlineOnConnect: false,
    syncFullHistory: false,
    // Baileys would echo each message we send as an "append" upsert. The outbox already stores what
    // send() returns, so the echo only costs a pipeline round per message (Ticketz and Evolution
    // turn it off too). The pipeline still treats a fromMe copy as a no-op: history sync brings them.
    emitOwnEvents: false,
    // Status posts and channels never become tickets: Baileys acks them without decrypting, so their
    // sender keys do not pile up in the auth table.
    shouldIgnoreJid: (jid) => isIgnoredChat(jid),
    cachedGroupMetadata: async (jid: string): Promise<GroupMetadata | undefined> => input.groups.metadata(jid),
    // A recipient that failed to decrypt asks for a resend; after a restart only the database still has it.
    getMessage: (key) => storedMessage(store, whatsappId, key.id),
  };
}
