import { BufferJSON, Curve, initAuthCreds, proto } from "@whiskeysockets/baileys";
import type { SourceDb } from "./sources.js";

/**
 * A linked Baileys auth state as the old systems hold it: Baileys' own initAuthCreds, paired to a
 * phone (me), one pre-key, one Signal session and one app-state sync key.
 */
export function linkedAuthState(phone: string) {
  const creds = { ...initAuthCreds(), me: { id: `${phone}:7@s.whatsapp.net`, name: "Loja" }, registered: true };
  const preKey = Curve.generateKeyPair();
  const appStateKey = {
    keyData: Buffer.from("0123456789abcdef0123456789abcdef"),
    fingerprint: { rawId: 7, currentIndex: 1, deviceIndexes: [0, 1] },
    timestamp: 1_700_000_000,
  };
  const session = { _sessions: { base: { registrationId: 4242, currentRatchet: { rootKey: "cm9vdA==" } } }, version: "v1" };
  return { creds, preKey, appStateKey, session, appStateKeyId: "AAAAAAoA", sessionId: `${phone}.0` };
}
export type LinkedAuthState = ReturnType<typeof linkedAuthState>;

/** The SaaS baseline: the whole `{ creds, keys }` in Whatsapps.session (BufferJSON), keys grouped by its KEY_MAP names. */
export async function fillSaasSession(src: SourceDb, auth: LinkedAuthState) {
  await src.insert("Companies", [{ id: 1, name: "Empresa" }]);
  await src.insert("Whatsapps", [
    {
      id: 1,
      companyId: 1,
      name: "Vendas",
      status: "CONNECTED",
      isDefault: true,
      session: JSON.stringify(
        {
          creds: auth.creds,
          keys: {
            preKeys: { "1": auth.preKey },
            sessions: { [auth.sessionId]: auth.session },
            appStateSyncKeys: { [auth.appStateKeyId]: auth.appStateKey },
          },
        },
        BufferJSON.replacer,
      ),
    },
    { id: 2, companyId: 1, name: "Nunca lida", status: "qrcode", isDefault: false, session: "" },
  ]);
}

/** Ticketz: creds in Whatsapps.session (BufferJSON, empty keys) and each key a BaileysKeys row (plain JSON.stringify). */
export async function fillTicketzSession(src: SourceDb, auth: LinkedAuthState) {
  await src.insert("Companies", [{ id: 1, name: "Loja" }]);
  await src.insert("Whatsapps", [
    {
      id: 1,
      companyId: 1,
      name: "Principal",
      status: "CONNECTED",
      isDefault: true,
      session: JSON.stringify({ creds: auth.creds, keys: {} }, BufferJSON.replacer, 0),
    },
  ]);
  await src.insert("BaileysKeys", [
    { whatsappId: 1, type: "pre-key", key: "1", value: JSON.stringify(auth.preKey) },
    { whatsappId: 1, type: "session", key: auth.sessionId, value: JSON.stringify(auth.session) },
    {
      whatsappId: 1,
      type: "app-state-sync-key",
      key: auth.appStateKeyId,
      value: JSON.stringify(proto.Message.AppStateSyncKeyData.fromObject(auth.appStateKey)),
    },
  ]);
}
