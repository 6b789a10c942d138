import {
  type AuthenticationCreds,
  type AuthenticationState,
  BufferJSON,
  initAuthCreds,
  proto,
  type SignalDataSet,
  type SignalDataTypeMap,
} from "@whiskeysockets/baileys";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { whatsappAuth } from "../../db/schema.js";

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
 * Baileys' auth state in the whatsapp_auth table, one row per key (design §5): any process
 * holding the connection's lease can resume the session, and nothing is written to files.
 */
export async function useDatabaseAuthState(db: Db, whatsappId: number): Promise<DatabaseAuthState> {
  const mine = eq(whatsappAuth.whatsappId, whatsappId);

  async function write(rows: { key: string; value: unknown }[], executor: Db = db) {
    if (rows.length === 0) return;
    await executor
      .insert(whatsappAuth)
      .values(rows.map((row) => ({ whatsappId, key: row.key, value: toJson(row.value) })))
      .onConflictDoUpdate({
        target: [whatsappAuth.whatsappId, whatsappAuth.key],
        set: { value: sql`excluded.value`, updatedAt: sql`now()` },
      });
  }

  const [stored] = await db
    .select({ value: whatsappAuth.value })
    .from(whatsappAuth)
    .where(and(mine, eq(whatsappAuth.key, CREDS_KEY)));
  const creds: AuthenticationCreds = stored ? fromJson<AuthenticationCreds>(stored.value) : initAuthCreds();

  const state: AuthenticationState = {
    creds,
    keys: {
      async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
        const result: { [id: string]: SignalDataTypeMap[T] } = {};
        if (ids.length === 0) return result;
        const prefix = `${type}-`;
        const rows = await db
          .select({ key: whatsappAuth.key, value: whatsappAuth.value })
          .from(whatsappAuth)
          .where(
            and(
              mine,
              inArray(
                whatsappAuth.key,
                ids.map((id) => prefix + id),
              ),
            ),
          );
        for (const row of rows) {
          let value = fromJson<SignalDataTypeMap[T]>(row.value);
          // Baileys expects the protobuf object here, not the plain JSON.
          if (type === "app-state-sync-key") {
            value = proto.Message.AppStateSyncKeyData.fromObject(value as object) as unknown as SignalDataTypeMap[T];
          }
          result[row.key.slice(prefix.length)] = value;
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
        // nothing after a crash, so the batch is all or nothing.
        await db.transaction(async (tx) => {
          await write(upserts, tx);
          if (deletes.length > 0) await tx.delete(whatsappAuth).where(and(mine, inArray(whatsappAuth.key, deletes)));
        });
      },
      async clear() {
        await db.delete(whatsappAuth).where(and(mine, sql`${whatsappAuth.key} <> ${CREDS_KEY}`));
      },
    },
  };

  return {
    state,
    saveCreds: () => write([{ key: CREDS_KEY, value: creds }]),
    async clear() {
      await db.delete(whatsappAuth).where(mine);
    },
  };
}

/** Forget a connection's pairing without loading it (logout of a session that is not running). */
export async function clearDatabaseAuthState(db: Db, whatsappId: number): Promise<void> {
  await db.delete(whatsappAuth).where(eq(whatsappAuth.whatsappId, whatsappId));
}
