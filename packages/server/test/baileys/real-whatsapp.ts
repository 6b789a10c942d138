import { once } from "node:events";
import { deflateSync } from "node:zlib";
import makeWASocket, {
  addTransactionCapability,
  type BinaryNode,
  Curve,
  decodeBinaryNode,
  encodeWAMessage,
  generateSignalPubKey,
  initAuthCreds,
  type KeyPair,
  proto,
  type UserFacingSocketConfig,
  type WASocket,
} from "@whiskeysockets/baileys";
import { makeLibSignalRepository } from "@whiskeysockets/baileys/lib/Signal/libsignal.js";
import { unpadRandomMax16 } from "@whiskeysockets/baileys/lib/Utils/generics.js";
import { WebSocketServer } from "ws";
import { type BaileysChannelOptions, createBaileysChannelFactory } from "../../src/channels/baileys/baileys-channel.js";
import { useDatabaseAuthState } from "../../src/channels/baileys/database-auth-state.js";
import type { Db } from "../../src/db/client.js";
import { createChannelStore } from "../../src/modules/connections/channel-store.js";
import { silentLogger } from "../channel-support.js";

/**
 * The real Baileys with no WhatsApp: a local WebSocket server that accepts the socket and stays
 * silent, and server stanzas injected into the client's own stanza handlers (`dispatch(ws, node)`
 * in real-stanzas.ts: every name Baileys' frame loop emits for a node). Until a noise handshake
 * completes Baileys writes its frames in clear, so what it sends the "server" (receipts, retry
 * requests) can be decoded and inspected.
 */
export const OWN_DEVICE = { id: "5511900000000:7@s.whatsapp.net", lid: "99990000000001:7@lid", name: "Shop" };
/** The business phone (our account's primary device, device 0), by number and by LID. */
export const OWN_PHONE = { jid: "5511900000000@s.whatsapp.net", lid: "99990000000001@lid" };

type StanzaEmitter = { emit(event: string, node: BinaryNode): boolean };

export interface LocalWhatsAppOptions {
  /** Socket settings over the adapter's (e.g. a shorter query timeout). */
  socket?: Partial<UserFacingSocketConfig>;
  /** The adapter's options (e.g. a short send timeout, pairing waits). */
  channel?: BaileysChannelOptions;
  /** The server's answer to an IQ Baileys sent (undefined: no answer, as a silent server). */
  answer?: (iq: BinaryNode) => BinaryNode | undefined;
}

export async function localWhatsApp(options: LocalWhatsAppOptions = {}) {
  const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  const frames: Buffer[] = [];
  const sockets: WASocket[] = [];
  wss.on("connection", (client) =>
    client.on("message", (data) => {
      const frame = Buffer.from(data as Buffer);
      frames.push(frame);
      if (options.answer) void answerIq(frame);
    }),
  );
  /** An IQ's answer reaches the socket as Baileys routes a server frame to its waiting query (`TAG:<id>`). */
  async function answerIq(frame: Buffer) {
    if (frame.length < 3 || frame.readUIntBE(0, 3) + 3 !== frame.length) return;
    const node = await decodeBinaryNode(frame.subarray(3)).catch(() => undefined);
    if (node?.tag !== "iq" || !node.attrs.id) return;
    const reply = options.answer?.(node);
    if (reply) (sockets.at(-1) as unknown as { ws: StanzaEmitter } | undefined)?.ws.emit(`TAG:${node.attrs.id}`, reply);
  }
  await once(wss, "listening");
  const url = `ws://127.0.0.1:${(wss.address() as { port: number }).port}`;
  const factory = createBaileysChannelFactory({
    makeSocket: (config) => {
      const socket = makeWASocket({
        ...config,
        waWebSocketUrl: url,
        connectTimeoutMs: 60_000,
        logger: process.env.BAILEYS_LOG ? (undefined as never) : config.logger,
        ...options.socket,
      });
      sockets.push(socket);
      return socket;
    },
    fetchVersion: async () => undefined,
    ...options.channel,
  });
  return {
    factory,
    sockets,
    /**
     * The stanza emitter of the newest socket, once it has reached the server (its hello arrived):
     * a real server only sends stanzas to a connected client.
     */
    async ws(): Promise<StanzaEmitter> {
      for (let i = 0; i < 250 && (sockets.length === 0 || frames.length === 0); i++) await new Promise((r) => setTimeout(r, 20));
      return (sockets.at(-1) as unknown as { ws: StanzaEmitter }).ws;
    },
    /** Binary nodes Baileys wrote to the server (the handshake's client hello is not one and is skipped). */
    async sentNodes(): Promise<BinaryNode[]> {
      const nodes: BinaryNode[] = [];
      for (const frame of frames) {
        // A frame is a 3-byte length and the node; the first one also carries the intro header.
        if (frame.length < 3 || frame.readUIntBE(0, 3) + 3 !== frame.length) continue;
        const decoded = await decodeBinaryNode(frame.subarray(3)).catch(() => undefined);
        if (decoded?.tag) nodes.push(decoded);
      }
      return nodes;
    },
    async close() {
      for (const socket of sockets) socket.end(undefined);
      for (const client of wss.clients) client.terminate();
      await new Promise((resolve) => wss.close(resolve));
    },
  };
}

/** A logged-in socket buffers every event until the server says its offline queue is drained. */
export const OFFLINE_DRAINED: BinaryNode = { tag: "ib", attrs: {}, content: [{ tag: "offline", attrs: { count: "0" } }] };

/**
 * Our device as if paired long ago, in Zapdesk's own auth tables: `me`, `registered`, an account
 * sync already done (no 20 s wait for history) and one one-time pre-key for a customer to use.
 */
export async function pairedDevice(db: Db, whatsappId: number) {
  const auth = await useDatabaseAuthState(createChannelStore(db).auth(whatsappId));
  Object.assign(auth.state.creds, { me: OWN_DEVICE, registered: true, accountSyncCounter: 1 });
  await auth.saveCreds();
  const preKey = Curve.generateKeyPair();
  await auth.state.keys.set({ "pre-key": { "1": preKey } });
  return { creds: auth.state.creds, preKey };
}

function memoryKeys() {
  const store = new Map<string, unknown>();
  const keys = {
    get: async (type: string, ids: string[]) =>
      Object.fromEntries(ids.filter((id) => store.has(`${type}-${id}`)).map((id) => [id, store.get(`${type}-${id}`)])),
    set: async (data: Record<string, Record<string, unknown>>) => {
      for (const [type, values] of Object.entries(data)) {
        for (const [id, value] of Object.entries(values ?? {})) {
          if (value == null) store.delete(`${type}-${id}`);
          else store.set(`${type}-${id}`, value);
        }
      }
    },
  };
  return addTransactionCapability(keys as never, silentLogger() as never, { maxCommitRetries: 1, delayBetweenTriesMs: 1 });
}

/**
 * Where the MAC of a Signal message ends: a `msg` ends with it; a `pkmsg` carries the `msg` as its
 * field 4 (after a version byte, protobuf fields), followed by the registration and pre-key ids.
 */
function macEnd(body: Buffer, type: string): number {
  if (type !== "pkmsg") return body.length;
  let at = 1;
  const varint = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = body[at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < body.length) {
    const tag = varint();
    if ((tag & 7) === 0) varint();
    else {
      const length = varint();
      if (tag >> 3 === 4) return at + length;
      at += length;
    }
  }
  throw new Error("no message inside the pkmsg");
}

/**
 * A customer's phone: its own Signal identity, a session built from our pre-key bundle, and real
 * encrypted `message` stanzas for our device.
 */
export async function simulatedCustomer(
  device: { creds: Awaited<ReturnType<typeof pairedDevice>>["creds"]; preKey: KeyPair },
  customer = { jid: "5511999990001@s.whatsapp.net", lid: "77771111222233@lid", name: "Ana" },
) {
  const repository = makeLibSignalRepository({ creds: initAuthCreds(), keys: memoryKeys() } as never, silentLogger() as never);
  const c = device.creds;
  await repository.injectE2ESession({
    jid: OWN_DEVICE.id,
    session: {
      registrationId: c.registrationId,
      identityKey: generateSignalPubKey(c.signedIdentityKey.public),
      signedPreKey: {
        keyId: c.signedPreKey.keyId,
        publicKey: generateSignalPubKey(c.signedPreKey.keyPair.public),
        signature: c.signedPreKey.signature,
      },
      preKey: { keyId: 1, publicKey: generateSignalPubKey(device.preKey.public) },
    },
  });
  return {
    ...customer,
    /**
     * A message stanza as WhatsApp's server delivers it; `corrupt` flips a byte of the MAC ("Bad
     * MAC"); `at` is when the customer sent it (unix seconds, now by default).
     */
    async message(id: string, text: string, options: { corrupt?: boolean; at?: number } = {}): Promise<BinaryNode> {
      const { type, ciphertext } = await repository.encryptMessage({
        jid: OWN_DEVICE.id,
        data: encodeWAMessage(proto.Message.fromObject({ conversation: text })),
      });
      const content = Buffer.from(ciphertext);
      if (options.corrupt) content[macEnd(content, type) - 1] ^= 0xff;
      return {
        tag: "message",
        attrs: {
          id,
          from: customer.jid,
          sender_lid: customer.lid,
          t: String(options.at ?? Math.floor(Date.now() / 1000)),
          type: "text",
          notify: customer.name,
        },
        content: [{ tag: "enc", attrs: { v: "2", type }, content }],
      };
    },
    /**
     * A message the server delivers with nothing to decrypt (a click-to-WhatsApp ad lead): Baileys
     * upserts a "Message absent from node" stub and asks our phone for the content.
     */
    absent(id: string): BinaryNode {
      return {
        tag: "message",
        attrs: {
          id,
          from: customer.jid,
          sender_lid: customer.lid,
          t: String(Math.floor(Date.now() / 1000)),
          type: "text",
          notify: customer.name,
        },
        content: [],
      };
    },
  };
}

/** A Signal identity with one one-time pre-key, its keys in memory: a phone that is not ours to store. */
async function signalParty() {
  const creds = initAuthCreds();
  const keys = memoryKeys();
  const preKey = Curve.generateKeyPair();
  await keys.set({ "pre-key": { "1": preKey } } as never);
  const repository = makeLibSignalRepository({ creds, keys } as never, silentLogger() as never);
  const bundle = {
    registrationId: creds.registrationId,
    identityKey: generateSignalPubKey(creds.signedIdentityKey.public),
    signedPreKey: {
      keyId: creds.signedPreKey.keyId,
      publicKey: generateSignalPubKey(creds.signedPreKey.keyPair.public),
      signature: creds.signedPreKey.signature,
    },
    preKey: { keyId: 1, publicKey: generateSignalPubKey(preKey.public) },
  };
  return { repository, bundle };
}

/**
 * The business phone, as our linked device knows it after pairing: our own LID mapping and a
 * Signal session with the phone, in Zapdesk's auth tables (call before the socket starts). The
 * phone decrypts what our device sends it (peer data operations) and answers placeholder resend
 * and on-demand history requests the way WhatsApp's phone app does.
 */
export async function ownPhone(db: Db, whatsappId: number) {
  const phone = await signalParty();
  const auth = await useDatabaseAuthState(createChannelStore(db).auth(whatsappId));
  const keys = addTransactionCapability(auth.state.keys, silentLogger() as never, {
    maxCommitRetries: 1,
    delayBetweenTriesMs: 1,
  });
  const ours = makeLibSignalRepository({ creds: auth.state.creds, keys } as never, silentLogger() as never);
  await ours.lidMapping.storeLIDPNMappings([{ lid: OWN_PHONE.lid, pn: OWN_PHONE.jid }]);
  // Mapped to its LID, the phone's sessions live under the LID address (as Baileys migrates them).
  await ours.injectE2ESession({ jid: OWN_PHONE.lid, session: phone.bundle });
  /** A message stanza from the phone to our device, encrypted with the phone's session. */
  async function fromPhone(id: string, content: proto.IMessage): Promise<BinaryNode> {
    const data = encodeWAMessage(proto.Message.fromObject(content));
    const { type, ciphertext } = await phone.repository.encryptMessage({ jid: OWN_DEVICE.id, data });
    return {
      tag: "message",
      attrs: { id, from: OWN_PHONE.jid, t: String(Math.floor(Date.now() / 1000)), type: "text", category: "peer" },
      content: [{ tag: "enc", attrs: { v: "2", type }, content: Buffer.from(ciphertext) }],
    };
  }
  return {
    /** Baileys' LID store learns these pairs (as from a history sync or a usync answer); before the socket starts. */
    async knows(pairs: { lid: string; pn: string }[]) {
      await ours.lidMapping.storeLIDPNMappings(pairs);
    },
    /** The content of a `message` stanza our device sent the phone. */
    async decrypt(node: BinaryNode): Promise<proto.IMessage> {
      const enc = (node.content as BinaryNode[]).find((c) => c.tag === "enc") as BinaryNode;
      const plain = await phone.repository.decryptMessage({
        jid: OWN_DEVICE.id,
        type: enc.attrs.type as "pkmsg" | "msg",
        ciphertext: enc.content as Uint8Array,
      });
      const message = proto.Message.decode(unpadRandomMax16(plain));
      return message.deviceSentMessage?.message ?? message;
    },
    /** The phone's answer to a placeholder resend request: the message it holds, for our device. */
    placeholderResend(requestId: string, original: proto.IWebMessageInfo): Promise<BinaryNode> {
      return fromPhone(`3EB0PDO${requestId.slice(-8)}`, {
        protocolMessage: {
          type: proto.Message.ProtocolMessage.Type.PEER_DATA_OPERATION_REQUEST_RESPONSE_MESSAGE,
          peerDataOperationRequestResponseMessage: {
            peerDataOperationRequestType: proto.Message.PeerDataOperationRequestType.PLACEHOLDER_MESSAGE_RESEND,
            stanzaId: requestId,
            peerDataOperationResult: [
              { placeholderMessageResendResponse: { webMessageInfoBytes: proto.WebMessageInfo.encode(original).finish() } },
            ],
          },
        },
      });
    },
    /**
     * The phone's answer to an on-demand history request: a history sync notification (ON_DEMAND)
     * whose payload, inline and deflated, holds the chat's messages under the chat id it names.
     */
    historyAnswer(requestId: string, chatJid: string, history: proto.IWebMessageInfo[]): Promise<BinaryNode> {
      const sync = proto.HistorySync.encode({
        syncType: proto.HistorySync.HistorySyncType.ON_DEMAND,
        conversations: [{ id: chatJid, messages: history.map((message, i) => ({ message, msgOrderId: i + 1 })) }],
      }).finish();
      return fromPhone(`3EB0HIS${requestId.slice(-8)}`, {
        protocolMessage: {
          type: proto.Message.ProtocolMessage.Type.HISTORY_SYNC_NOTIFICATION,
          historySyncNotification: {
            syncType: proto.Message.HistorySyncType.ON_DEMAND,
            initialHistBootstrapInlinePayload: deflateSync(sync),
            peerDataRequestSessionId: requestId,
          },
        },
      });
    },
  };
}
