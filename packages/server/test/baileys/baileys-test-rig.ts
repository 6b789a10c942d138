import { Readable } from "node:stream";
import type { WAMessage } from "@whiskeysockets/baileys";
import type { ConnectionStatus } from "@zapdesk/core";
import { type BaileysChannelOptions, createBaileysChannelFactory } from "../../src/channels/baileys/baileys-channel.js";
import type {
  ChannelContext,
  ChannelHandlers,
  ChannelSession,
  CloseReason,
  IdentityMapping,
  InboundCall,
  InboundMessage,
  MessageUpdate,
} from "../../src/channels/channel.js";
import type { Db } from "../../src/db/client.js";
import { channelContext } from "../channel-support.js";
import { FakeSocket } from "./fake-socket.js";

export interface Recorded {
  qrs: string[];
  statuses: ConnectionStatus[];
  closes: { reason: CloseReason; error?: string; statusReason?: string }[];
  messages: InboundMessage[];
  updates: MessageUpdate[];
  calls: InboundCall[];
  pairingCodes: string[];
  identities: IdentityMapping[];
}

export interface Rig {
  session: ChannelSession;
  /** Every socket the adapter created, newest last. */
  sockets: FakeSocket[];
  socket: FakeSocket;
  rec: Recorded;
  downloads: WAMessage[];
  factory: ReturnType<typeof createBaileysChannelFactory>;
  /** The next onMessage throws (a pipeline failure); resolves once it has. */
  failNextMessage(): Promise<void>;
}

/** Never reaches the network: the bundled version is used. */
export const noVersionFetch = async () => undefined;

/**
 * A Baileys factory whose sockets are FakeSockets and whose media downloads return fixed bytes.
 * `socketConfig` overrides what the adapter configured (e.g. Baileys' default emitOwnEvents).
 */
export function fakeBaileys(options: { socketConfig?: Partial<FakeSocket["config"]> } & BaileysChannelOptions = {}) {
  const sockets: FakeSocket[] = [];
  const downloads: WAMessage[] = [];
  const { socketConfig, ...channel } = options;
  const factory = createBaileysChannelFactory({
    makeSocket: (config) => {
      const socket = new FakeSocket({ ...config, ...socketConfig });
      sockets.push(socket);
      return socket;
    },
    download: async (message) => {
      downloads.push(message);
      return Readable.from([Buffer.from("media-bytes")]);
    },
    fetchVersion: noVersionFetch,
    ...channel,
  });
  return { sockets, downloads, factory };
}

export function recordingHandlers() {
  const rec: Recorded = {
    qrs: [],
    pairingCodes: [],
    statuses: [],
    closes: [],
    messages: [],
    updates: [],
    calls: [],
    identities: [],
  };
  let failure: (() => void) | undefined;
  const handlers: ChannelHandlers = {
    onQr: (qr) => rec.qrs.push(qr),
    onPairingCode: (code) => rec.pairingCodes.push(code),
    onStatus: (status) => rec.statuses.push(status),
    onClosed: (info) => rec.closes.push(info),
    onMessage: async (message) => {
      if (failure) {
        const done = failure;
        failure = undefined;
        done();
        throw new Error("pipeline failed");
      }
      rec.messages.push(message);
    },
    onUpdate: async (update) => {
      rec.updates.push(update);
    },
    onCall: async (call) => {
      rec.calls.push(call);
    },
    onIdentity: async (mapping) => {
      rec.identities.push(mapping);
    },
  };
  const failNextMessage = () =>
    new Promise<void>((resolve) => {
      failure = resolve;
    });
  return { rec, handlers, failNextMessage };
}

/** A Baileys session on a fake socket that WhatsApp has just opened. */
export async function connectedSession(
  db: Db,
  whatsappId: number,
  overrides: Partial<ChannelContext> = {},
  options: Parameters<typeof fakeBaileys>[0] = {},
): Promise<Rig> {
  const { sockets, downloads, factory } = fakeBaileys(options);
  const { rec, handlers, failNextMessage } = recordingHandlers();
  const session = factory(channelContext(db, whatsappId, handlers, overrides));
  await session.start();
  const socket = sockets[0];
  socket.open();
  return { session, sockets, socket, rec, downloads, factory, failNextMessage };
}
