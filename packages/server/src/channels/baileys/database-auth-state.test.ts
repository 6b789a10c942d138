import { proto } from "@whiskeysockets/baileys";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertConnection } from "../../../test/channel-support.js";
import { openTestDatabase } from "../../../test/harness.js";
import { createChannelStore } from "../../modules/connections/channel-store.js";
import { useDatabaseAuthState } from "./database-auth-state.js";

let database: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
  await database.drop();
});

const bytes = (n: number, fill: number) => Buffer.alloc(n, fill);

describe("useDatabaseAuthState", () => {
  it("starts with fresh credentials and round-trips them, Buffers included", async () => {
    const id = await insertConnection(database.db, "baileys");
    const first = await useDatabaseAuthState(createChannelStore(database.db).auth(id));
    const creds = first.state.creds;
    expect(creds.me).toBeUndefined();
    expect(Buffer.isBuffer(creds.noiseKey.private)).toBe(true);

    creds.me = { id: "5511999990000:7@s.whatsapp.net", name: "Shop", lid: "123456789012345:7@lid" };
    creds.registered = true;
    await first.saveCreds();

    const again = await useDatabaseAuthState(createChannelStore(database.db).auth(id));
    expect(again.state.creds).toEqual(creds);
    expect(Buffer.isBuffer(again.state.creds.noiseKey.private)).toBe(true);
    expect(Buffer.from(again.state.creds.noiseKey.private).equals(Buffer.from(creds.noiseKey.private))).toBe(true);
    expect(Buffer.from(again.state.creds.signedPreKey.signature).equals(Buffer.from(creds.signedPreKey.signature))).toBe(true);
    expect(again.state.creds.me?.id).toBe("5511999990000:7@s.whatsapp.net");
  });

  it("stores, reads, overwrites and deletes signal keys of every shape", async () => {
    const id = await insertConnection(database.db, "baileys");
    const { state } = await useDatabaseAuthState(createChannelStore(database.db).auth(id));
    const syncKey = proto.Message.AppStateSyncKeyData.fromObject({
      keyData: bytes(32, 9),
      fingerprint: { rawId: 7, currentIndex: 1, deviceIndexes: [0, 1] },
      timestamp: 1_700_000_000,
    });
    await state.keys.set({
      "pre-key": { "1": { public: bytes(32, 1), private: bytes(32, 2) }, "2": { public: bytes(32, 3), private: bytes(32, 4) } },
      session: { "5511999990001.0": new Uint8Array([0, 1, 2, 255]) },
      "app-state-sync-key": { AAAAAEdF: syncKey },
      "sender-key-memory": { "120363041234567890@g.us": { "5511999990001:1@s.whatsapp.net": true } },
      "lid-mapping": { "5511999990001": "98765432101234" },
      "device-list": { "5511999990001": ["0", "1"] },
    });

    const preKeys = await state.keys.get("pre-key", ["1", "2", "3"]);
    expect(Object.keys(preKeys).sort()).toEqual(["1", "2"]);
    expect(Buffer.isBuffer(preKeys["1"].private)).toBe(true);
    expect(Buffer.from(preKeys["2"].public).equals(bytes(32, 3))).toBe(true);

    const sessions = await state.keys.get("session", ["5511999990001.0"]);
    expect(Buffer.from(sessions["5511999990001.0"]).equals(Buffer.from([0, 1, 2, 255]))).toBe(true);

    const sync = (await state.keys.get("app-state-sync-key", ["AAAAAEdF"])).AAAAAEdF;
    expect(sync).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(Buffer.from(sync.keyData!).equals(bytes(32, 9))).toBe(true);
    expect(sync.fingerprint?.rawId).toBe(7);

    expect(await state.keys.get("sender-key-memory", ["120363041234567890@g.us"])).toEqual({
      "120363041234567890@g.us": { "5511999990001:1@s.whatsapp.net": true },
    });
    expect(await state.keys.get("lid-mapping", ["5511999990001"])).toEqual({ "5511999990001": "98765432101234" });
    expect(await state.keys.get("device-list", ["5511999990001"])).toEqual({ "5511999990001": ["0", "1"] });
    expect(await state.keys.get("pre-key", [])).toEqual({});

    await state.keys.set({ "pre-key": { "1": null, "2": { public: bytes(32, 5), private: bytes(32, 6) } } });
    const after = await state.keys.get("pre-key", ["1", "2"]);
    expect(Object.keys(after)).toEqual(["2"]);
    expect(Buffer.from(after["2"].public).equals(bytes(32, 5))).toBe(true);
  });

  it("writes one batch of keys in one transaction: a statement that fails undoes the whole batch", async () => {
    const id = await insertConnection(database.db, "baileys");
    const { state } = await useDatabaseAuthState(createChannelStore(database.db).auth(id));
    await state.keys.set({ session: { "5511999990001.0": new Uint8Array([1]) } });
    // What Baileys commits after decrypting a pre-key message: a new session, the used pre-key
    // deleted. The id of the deletion holds a NUL byte, which PostgreSQL rejects in text, so the
    // second statement of the batch fails after the first one ran.
    const batch = {
      session: { "5511999990001.0": new Uint8Array([2]), "5511999990002.0": new Uint8Array([3]) },
      "pre-key": { "bad\u0000id": null },
    };
    await expect(state.keys.set(batch)).rejects.toThrow();
    const sessions = await state.keys.get("session", ["5511999990001.0", "5511999990002.0"]);
    expect(Object.keys(sessions)).toEqual(["5511999990001.0"]);
    expect(Buffer.from(sessions["5511999990001.0"])).toEqual(Buffer.from([1]));
  });

  it("keeps connections apart and clears one without touching the other", async () => {
    const a = await insertConnection(database.db, "baileys");
    const b = await insertConnection(database.db, "baileys");
    const stateA = await useDatabaseAuthState(createChannelStore(database.db).auth(a));
    const stateB = await useDatabaseAuthState(createChannelStore(database.db).auth(b));
    await stateA.saveCreds();
    await stateB.saveCreds();
    await stateA.state.keys.set({ session: { x: new Uint8Array([1]) } });
    await stateB.state.keys.set({ session: { x: new Uint8Array([2]) } });
    expect(Buffer.from((await stateB.state.keys.get("session", ["x"])).x)).toEqual(Buffer.from([2]));

    await stateA.clear();
    expect(await stateA.state.keys.get("session", ["x"])).toEqual({});
    expect((await useDatabaseAuthState(createChannelStore(database.db).auth(a))).state.creds.noiseKey).not.toEqual(
      stateA.state.creds.noiseKey,
    );
    expect((await useDatabaseAuthState(createChannelStore(database.db).auth(b))).state.creds).toEqual(stateB.state.creds);

    await createChannelStore(database.db).auth(b).clear();
    expect(await stateB.state.keys.get("session", ["x"])).toEqual({});
  });
});
