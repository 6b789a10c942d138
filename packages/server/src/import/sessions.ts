import { type AuthenticationCreds, BufferJSON, type SignalDataSet } from "@whiskeysockets/baileys";
import { useDatabaseAuthState } from "../channels/baileys/database-auth-state.js";
import type { Db } from "../db/client.js";
import { authRows } from "../modules/connections/channel-store-rows.js";
import { q, type Run } from "./context.js";
import { str } from "./convert.js";
import type { Row } from "./source.js";

/** The key groups of the SaaS baseline's `{ creds, keys }` (authState.ts KEY_MAP), by Baileys' type names. */
const LEGACY_TYPES: Record<string, string> = {
  preKeys: "pre-key",
  sessions: "session",
  senderKeys: "sender-key",
  appStateSyncKeys: "app-state-sync-key",
  appStateVersions: "app-state-sync-version",
  senderKeyMemory: "sender-key-memory",
};
const KNOWN_TYPES = new Set([...Object.values(LEGACY_TYPES), "lid-mapping", "device-list", "tctoken", "identity-key"]);

export interface SourceSession {
  creds: AuthenticationCreds;
  keys: Record<string, Record<string, unknown>>;
  count: number;
}

/** Why a flavour's connections cannot be adopted, or undefined when its database holds Baileys auth states. */
export function notAdoptable(run: Run): string | undefined {
  if (run.flavour === "community" || run.flavour === "press")
    return "a whatsapp-web.js session, which Baileys cannot use: link the phone again (QR or pairing code)";
  if (run.flavour === "multiflow")
    return "Multiflow keeps its Baileys keys in Redis, not in the database: link the phone again (QR or pairing code)";
  return undefined;
}

/**
 * A source connection's Baileys auth state: the SaaS baseline's `Whatsapps.session` (the whole
 * `{ creds, keys }`, BufferJSON), Ticketz's `Whatsapps.session` (creds) with `BaileysKeys` rows.
 * A string says why there is nothing to adopt.
 */
export async function readSession(run: Run, row: Row): Promise<SourceSession | string> {
  const text = str(row.session).trim();
  if (!text) return "no linked session in the old system: link the phone";
  let parsed: { creds?: AuthenticationCreds; keys?: Record<string, Record<string, unknown>> };
  try {
    parsed = JSON.parse(text, BufferJSON.reviver);
  } catch {
    return "its session is not a Baileys auth state: link the phone again";
  }
  const creds = parsed?.creds;
  if (!creds?.noiseKey || !creds.signedIdentityKey || !creds.me?.id)
    return "its session was never paired with a phone: link the phone";
  const keys: Record<string, Record<string, unknown>> = {};
  let count = 0;
  const add = (type: string, id: string, value: unknown) => {
    if (!KNOWN_TYPES.has(type) || value === null || value === undefined) return;
    keys[type] ??= {};
    (keys[type] as Record<string, unknown>)[id] = value;
    count++;
  };
  for (const [group, values] of Object.entries(parsed.keys ?? {})) {
    for (const [id, value] of Object.entries(values ?? {})) add(LEGACY_TYPES[group] ?? group, id, value);
  }
  if (run.has("BaileysKeys", "whatsappId")) {
    const rows = await run.source.query(`select "type", "key", "value" from "BaileysKeys" where "whatsappId" = ?`, [
      Number(row.id),
    ]);
    for (const k of rows) {
      try {
        add(str(k.type), str(k.key), JSON.parse(str(k.value), BufferJSON.reviver));
      } catch {
        // An unreadable key is one Baileys would not have read either.
      }
    }
  }
  if (!count) return "its Signal keys are not in the database (kept in Redis by this version): link the phone again";
  return { creds, keys, count };
}

/** Store an adopted auth state as the connection's own (whatsapp_auth), so it connects without a new QR. */
export async function adoptSession(tx: Db, connection: number, session: SourceSession) {
  const auth = await useDatabaseAuthState(authRows(tx, connection));
  // Fields a newer Baileys added keep the defaults of initAuthCreds; everything the old one had is carried.
  Object.assign(auth.state.creds, session.creds);
  await auth.saveCreds();
  const entries = Object.entries(session.keys).flatMap(([type, values]) =>
    Object.entries(values).map(([id, value]) => [type, id, value] as const),
  );
  for (let i = 0; i < entries.length; i += 500) {
    const chunk: Record<string, Record<string, unknown>> = {};
    for (const [type, id, value] of entries.slice(i, i + 500)) {
      chunk[type] ??= {};
      (chunk[type] as Record<string, unknown>)[id] = value;
    }
    await auth.state.keys.set(chunk as SignalDataSet);
  }
  // Meant to be connected: Zapdesk opens it with these credentials when it starts (no QR).
  await q(tx, "update whatsapps set status = 'OPENING', qrcode = '' where id = $1", [connection]);
}
