import { type BinaryNode, getBinaryNodeChild, getBinaryNodeChildString } from "@whiskeysockets/baileys";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { useDatabaseAuthState } from "../../src/channels/baileys/database-auth-state.js";
import { createSessionManager, type SessionManager } from "../../src/channels/session-manager.js";
import type { ConnectionState } from "../../src/channels/session-types.js";
import { whatsappAuth, whatsapps } from "../../src/db/schema.js";
import { createChannelStore } from "../../src/modules/connections/channel-store.js";
import { insertConnection, recordingSink, silentLogger } from "../channel-support.js";
import { eventually } from "../conversation.js";
import { openTestDatabase } from "../harness.js";
import { answer, DEVICE, pairDevice, primaryPhone, qrFields, refusal, registrationRefresh } from "./linking-phone.js";
import { dispatch } from "./real-stanzas.js";
import { localWhatsApp } from "./real-whatsapp.js";

/**
 * The project's `eventually` with room for a loaded machine: vi.waitFor's default gave up after one
 * second, which the suite overran here once, run beside CI on two cores. Only a failure waits longer.
 */
const waitLong = <T>(check: () => T | Promise<T>, timeoutMs = 15_000) => eventually(check, timeoutMs);

/**
 * Linking a phone as WhatsApp behaves in late 2026 (channels.md §4.1), with the real makeWASocket
 * created by Zapdesk's adapter and session manager, its database auth state, and server stanzas
 * routed through Baileys' own handler names.
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let server: Awaited<ReturnType<typeof localWhatsApp>> | undefined;
let manager: SessionManager | undefined;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterEach(async () => {
  await manager?.stopAll();
  await server?.close();
  manager = undefined;
  server = undefined;
});
afterAll(async () => {
  await database.close();
  await database.drop();
});

async function storedCreds(id: number) {
  const [row] = await database.db
    .select({ key: whatsappAuth.key })
    .from(whatsappAuth)
    .where(and(eq(whatsappAuth.whatsappId, id), eq(whatsappAuth.key, "creds")));
  return row ? (await useDatabaseAuthState(createChannelStore(database.db).auth(id))).state.creds : undefined;
}

/** A new QR connection started on the real socket; each reported QR is kept with the secret stored at that moment. */
async function starting(options: { pairingPhone?: string; qrTimeout?: number; stallMs?: number; url?: string } = {}) {
  server = await localWhatsApp({
    socket: {
      ...(options.qrTimeout ? { qrTimeout: options.qrTimeout } : {}),
      ...(options.url ? { waWebSocketUrl: options.url } : {}),
    },
    channel: { pairing: { stallMs: options.stallMs ?? 60_000 } },
  });
  const id = await insertConnection(database.db, "baileys");
  if (options.pairingPhone)
    await database.db.update(whatsapps).set({ pairingPhone: options.pairingPhone }).where(eq(whatsapps.id, id));
  const rec = recordingSink();
  const qrs: { qr: string; storedSecret?: string }[] = [];
  const onState = async (whatsappId: number, state: ConnectionState) => {
    if (state.qrcode) qrs.push({ qr: state.qrcode, storedSecret: (await storedCreds(whatsappId))?.advSecretKey });
    await rec.onState(whatsappId, state);
  };
  manager = createSessionManager({
    store: createChannelStore(database.db),
    factories: { baileys: server.factory },
    logger: silentLogger(),
    sink: rec.sink,
    onState,
    mediaMaxBytes: 1024,
    backoff: { initialMs: 10, maxMs: 20 },
  });
  await manager.start(id);
  const states = () => rec.states.filter((s) => s.whatsappId === id).map((s) => s.state);
  const socketCreds = () => server!.sockets.at(-1)!.authState.creds;
  return { id, qrs, states, socketCreds, manager, server };
}

/** Started, and reached by the local server: ready for WhatsApp's stanzas. */
async function linking(options: Parameters<typeof starting>[0] = {}) {
  const link = await starting(options);
  return { ...link, ws: await link.server.ws() };
}

/** The last node Baileys sent with this child (its stanzas to the server are written in clear before the handshake). */
async function sentWith(child: string, stage?: string): Promise<BinaryNode> {
  let found: BinaryNode | undefined;
  await waitLong(async () => {
    found = (await server!.sentNodes())
      .filter((n) => {
        const c = getBinaryNodeChild(n, child);
        return c && (!stage || c.attrs.stage === stage);
      })
      .at(-1);
    expect(found).toBeDefined();
  });
  return found!;
}

describe("companion_reg_refresh: the QR carries a fresh secret and the phone's link verifies against it", () => {
  it("rotates and stores the secret before showing the current ref again, then accepts the pair-success signed with it", async () => {
    const link = await linking();
    dispatch(link.ws, pairDevice(["ref-1", "ref-2"]));
    await waitLong(() => expect(link.qrs).toHaveLength(1));
    const first = qrFields(link.qrs[0].qr);
    expect(first.ref).toBe("ref-1");

    const refresh = registrationRefresh();
    dispatch(link.ws, refresh);
    await waitLong(() => expect(link.qrs).toHaveLength(2));
    const second = qrFields(link.qrs[1].qr);
    // The current ref again, with a new 32-byte secret that was stored before the QR was reported.
    expect(second).toMatchObject({ ref: "ref-1", noise: first.noise, identity: first.identity, platform: first.platform });
    expect(second.adv).not.toBe(first.adv);
    expect(Buffer.from(second.adv, "base64")).toHaveLength(32);
    expect(link.qrs[1].storedSecret).toBe(second.adv);
    // WhatsApp Web acks the notification; rc14 cannot before the device has an identity.
    await waitLong(async () =>
      expect((await server!.sentNodes()).find((n) => n.tag === "ack" && n.attrs.id === refresh.attrs.id)?.attrs).toMatchObject({
        class: "notification",
        type: "companion_reg_refresh",
      }),
    );

    const phone = primaryPhone();
    dispatch(link.ws, phone.pairSuccess(link.socketCreds().signedIdentityKey.public, second.adv));
    await waitLong(() => expect(link.states().map((s) => s.status)).toContain("PAIRING"));
    await waitLong(async () => expect((await storedCreds(link.id))?.me?.id).toBe(DEVICE.jid));
    expect((await storedCreds(link.id))?.account?.accountSignatureKey).toBeDefined();
    // WhatsApp then asks for a fresh socket (515), which logs in with the new identity.
    dispatch(link.ws, { tag: "stream:error", attrs: { code: "515" } });
    await waitLong(() => expect(server!.sockets).toHaveLength(2));
    expect(server!.sockets[1].authState.creds.me?.id).toBe(DEVICE.jid);
    expect(link.states().some((s) => s.status === "DISCONNECTED")).toBe(false);
  });

  it("a pair-success keyed by the retired secret is refused, and the admin is told the link failed", async () => {
    const link = await linking();
    dispatch(link.ws, pairDevice(["ref-1"]));
    await waitLong(() => expect(link.qrs).toHaveLength(1));
    const retired = qrFields(link.qrs[0].qr).adv;
    dispatch(link.ws, registrationRefresh("pair-device-rotate-qr"));
    await waitLong(() => expect(link.qrs).toHaveLength(2));

    dispatch(link.ws, primaryPhone().pairSuccess(link.socketCreds().signedIdentityKey.public, retired));
    await waitLong(() => expect(link.manager.status(link.id)).toBe("DISCONNECTED"));
    expect(link.states().at(-1)).toMatchObject({ status: "DISCONNECTED", statusReason: "PAIRING_FAILED", qrcode: "" });
    expect(link.states().some((s) => s.status === "PAIRING")).toBe(false);
    expect((await storedCreds(link.id))?.account).toBeUndefined();
  });

  it("every later ref Baileys renders carries the new secret, and when the refs run out the admin gets QR_TIMEOUT", async () => {
    const link = await linking({ qrTimeout: 1_000 });
    dispatch(link.ws, pairDevice(["ref-1", "ref-2", "ref-3"]));
    await waitLong(() => expect(link.qrs).toHaveLength(1));
    const retired = qrFields(link.qrs[0].qr).adv;
    dispatch(link.ws, registrationRefresh());
    await waitLong(() => expect(link.manager.status(link.id)).toBe("DISCONNECTED"), 10_000);

    const shown = link.qrs.map((q) => qrFields(q.qr));
    const rotatedAt = shown.findIndex((q) => q.adv !== retired);
    expect(rotatedAt).toBeGreaterThan(0);
    const after = shown.slice(rotatedAt);
    expect(after.map((q) => q.ref)).toEqual(expect.arrayContaining(["ref-2", "ref-3"]));
    expect(new Set(after.map((q) => q.adv))).toEqual(new Set([shown[rotatedAt].adv]));
    expect(link.states().at(-1)).toMatchObject({ status: "DISCONNECTED", statusReason: "QR_TIMEOUT", qrcode: "" });
  });
});

describe("pairing by phone code", () => {
  const PHONE = "5511900000000";

  async function codeRequested(options: { stallMs?: number } = {}) {
    const link = await linking({ pairingPhone: PHONE, ...options });
    dispatch(link.ws, pairDevice(["ref-1"]));
    const hello = await sentWith("link_code_companion_reg", "companion_hello");
    return { ...link, hello };
  }

  it("names a real browser over a real OS, and a refusal reaches the admin as a reason, never as a code", async () => {
    const link = await codeRequested();
    const reg = getBinaryNodeChild(link.hello, "link_code_companion_reg");
    expect(getBinaryNodeChildString(reg, "companion_platform_display")).toBe("Chrome (Windows)");
    expect(reg?.attrs.jid).toBe(`${PHONE}@s.whatsapp.net`);

    dispatch(link.ws, refusal(link.hello, "400", "bad-request"));
    await waitLong(() => expect(link.manager.status(link.id)).toBe("DISCONNECTED"));
    expect(link.states().at(-1)).toMatchObject({ status: "DISCONNECTED", statusReason: "PAIRING_CODE_REFUSED", pairingCode: "" });
    expect(link.states().at(-1)?.lastError).toMatch(/400 bad-request/);
    expect(link.states().some((s) => s.pairingCode)).toBe(false);
    expect(link.qrs).toEqual([]);
  });

  it("shows the code once WhatsApp accepted the request", async () => {
    const link = await codeRequested();
    expect(link.states().some((s) => s.pairingCode)).toBe(false);
    dispatch(
      link.ws,
      answer(link.hello, [
        {
          tag: "link_code_companion_reg",
          attrs: {},
          content: [{ tag: "link_code_pairing_ref", attrs: {}, content: Buffer.from("r") }],
        },
      ]),
    );
    await waitLong(() => expect(link.states().at(-1)).toMatchObject({ status: "qrcode", qrcode: "" }));
    expect(link.states().at(-1)?.pairingCode).toBe(link.socketCreds().pairingCode);
    expect(link.states().at(-1)?.pairingCode).toMatch(/^[A-Z0-9]{8}$/);
  });

  it("the phone typed the code but pair-success never came: PAIRING_STALLED after the wait, and the next try starts clean", async () => {
    const link = await codeRequested({ stallMs: 500 });
    dispatch(link.ws, answer(link.hello));
    await waitLong(() => expect(link.states().at(-1)?.pairingCode).toBeTruthy());
    const code = link.states().at(-1)!.pairingCode!;

    const phone = primaryPhone();
    dispatch(link.ws, await phone.codeHello(link.hello, code));
    const finish = await sentWith("link_code_companion_reg", "companion_finish");
    dispatch(link.ws, answer(finish));
    await waitLong(() => expect(link.socketCreds().registered).toBe(true));

    await waitLong(() => expect(link.manager.status(link.id)).toBe("DISCONNECTED"));
    expect(link.states().at(-1)).toMatchObject({ statusReason: "PAIRING_STALLED", pairingCode: "" });
    expect(link.states().at(-1)?.lastError).toMatch(/did not confirm the link/);

    await link.manager.start(link.id);
    await waitLong(() => expect(link.server.sockets).toHaveLength(2));
    expect(link.socketCreds()).toMatchObject({ registered: false, me: undefined });
  });

  it("a registration refresh during a code pairing leaves the secret the code exchange derived", async () => {
    const link = await codeRequested();
    dispatch(link.ws, answer(link.hello));
    await waitLong(() => expect(link.states().at(-1)?.pairingCode).toBeTruthy());
    const phone = primaryPhone();
    dispatch(link.ws, await phone.codeHello(link.hello, link.states().at(-1)!.pairingCode!));
    const finish = await sentWith("link_code_companion_reg", "companion_finish");
    dispatch(link.ws, answer(finish));
    await waitLong(() => expect(link.socketCreds().registered).toBe(true));

    dispatch(link.ws, registrationRefresh());
    dispatch(link.ws, phone.pairSuccess(link.socketCreds().signedIdentityKey.public, phone.codeSecret(finish)));
    await waitLong(() => expect(link.states().map((s) => s.status)).toContain("PAIRING"));
    expect(link.qrs).toEqual([]);
  });
});

describe("a server that cannot reach WhatsApp", () => {
  it("says so while it retries: TIMEOUT with the socket's error, for the pairing dialog to show", async () => {
    // A port nobody listens on: the WebSocket is refused, as when WhatsApp is unreachable.
    const link = await starting({ url: "ws://127.0.0.1:9/ws/chat" });
    await waitLong(() => expect(link.states().filter((s) => s.status === "TIMEOUT").length).toBeGreaterThanOrEqual(2));
    expect(link.states().find((s) => s.status === "TIMEOUT")).toMatchObject({ reconnecting: true, retries: 1 });
    expect(link.states().find((s) => s.status === "TIMEOUT")?.lastError).toMatch(/WebSocket Error|ECONNREFUSED/);
    expect(link.qrs).toEqual([]);
  });
});
