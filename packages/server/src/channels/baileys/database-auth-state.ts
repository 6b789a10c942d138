import {
  type AuthenticationCreds,
  type AuthenticationState,
  BufferJSON,
  initAuthCreds,
  proto,
  type SignalDataSet,
  type SignalDataTypeMap,
} from "@whiskeysockets/baileys";
import type { AuthRows } from "../channel-store.js";

export interface DatabaseAuthState {
  state: AuthenticationState;
  /** Persist the credentials (Baileys mutates them in place and emits creds.update). */
  saveCreds(): Promise<void>;
  /** Forget the pairing: the next session starts with fresh credentials and shows a QR. */
  clear(): Promise<void>;
}

const CREDS_KEY = "creds";

/**
 * Buffers become { type: "Buffer", data: base64 } so they survive jsonb (which rejects \u0000).
 * Values sit in an envelope: drizzle's jsonb reader JSON-parses top-level strings a second
 * time, which turned a LID mapping such as "98765432101234" into a number.
 */
const toJson = (value: unknown): unknown => ({ v: JSON.parse(JSON.stringify(value, BufferJSON.replacer)) });
const fromJson = <T>(stored: unknown): T => JSON.parse(JSON.stringify((stored as { v: unknown }).v), BufferJSON.reviver) as T;

/**
 * Baileys' auth state in the whatsapp_auth table, one row per key (design §5), through the
 * channel store: any process holding the connection's lease can resume the session, and nothing
 * is written to files.
 */
export async function useDatabaseAuthState(rows: AuthRows): Promise<DatabaseAuthState> {
  const write = (entries: { key: string; value: unknown }[], deletes: string[] = []) =>
    rows.write(
      entries.map((entry) => ({ key: entry.key, value: toJson(entry.value) })),
      deletes,
    );

  const stored = (await rows.read([CREDS_KEY])).get(CREDS_KEY);
  const creds: AuthenticationCreds = stored ? fromJson<AuthenticationCreds>(stored) : initAuthCreds();

  const state: AuthenticationState = {
    creds,
    keys: {
      async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
        const result: { [id: string]: SignalDataTypeMap[T] } = {};
        if (ids.length === 0) return result;
        const prefix = `${type}-`;
        const values = await rows.read(ids.map((id) => prefix + id));
        for (const [key, storedValue] of values) {
          let value = fromJson<SignalDataTypeMap[T]>(storedValue);
          // Baileys expects the protobuf object here, not the plain JSON.
          if (type === "app-state-sync-key") {
            value = proto.Message.AppStateSyncKeyData.fromObject(value as object) as unknown as SignalDataTypeMap[T];
          }
          result[key.slice(prefix.length)] = value;
        }
        return result;
      },
      async set(data: SignalDataSet) {
        const upserts: { key: string; value: unknown }[] = [];
        const deletes: string[] = [];
        for (const [type, values] of Object.entries(data)) {
          for (const [id, value] of Object.entries(values ?? {})) {
            if (value === null || value === undefined) deletes.push(`${type}-${id}`);
            else upserts.push({ key: `${type}-${id}`, value });
          }
        }
        if (upserts.length === 0 && deletes.length === 0) return;
        // Baileys commits a Signal transaction as one batch (a new session and the pre-key it used
        // up, a sender key and its memory): half of one written would leave sessions that decrypt
        // nothing after a crash, so the batch is all or nothing (the store writes it in one transaction).
        await write(upserts, deletes);
      },
      async clear() {
        await rows.clear({ except: CREDS_KEY });
      },
    },
  };

  return {
    state,
    saveCreds: () => write([{ key: CREDS_KEY, value: creds }]),
    clear: () => rows.clear(),
  };
}
