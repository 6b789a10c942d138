import type { WAMessage } from "@whiskeysockets/baileys";
import type { ConnectionStatus } from "@zapdesk/core";
import type { Db } from "../../db/client.js";
import type { ChannelHandlers, ChannelSession, CloseReason, InboundCall, InboundMessage, MessageUpdate } from "../channel.js";
import { silentLogger } from "../test-support.js";
import { createBaileysChannelFactory } from "./baileys-channel.js";
import { FakeSocket } from "./fake-socket.js";

export interface Recorded {
  qrs: string[];
  statuses: ConnectionStatus[];
  closes: { reason: CloseReason; error?: string }[];
  messages: InboundMessage[];
  updates: MessageUpdate[];
  calls: InboundCall[];
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

/** A Baileys factory whose sockets are FakeSockets and whose media downloads return fixed bytes. */
export function fakeBaileys() {
  const sockets: FakeSocket[] = [];
  const downloads: WAMessage[] = [];
  const factory = createBaileysChannelFactory({
    makeSocket: (config) => {
      const socket = new FakeSocket(config);
      sockets.push(socket);
      return socket;
    },
    download: async (message) => {
      downloads.push(message);
      return Buffer.from("media-bytes");
    },
  });
  return { sockets, downloads, factory };
}

export function recordingHandlers() {
  const rec: Recorded = { qrs: [], statuses: [], closes: [], messages: [], updates: [], calls: [] };
  let failure: (() => void) | undefined;
  const handlers: ChannelHandlers = {
    onQr: (qr) => rec.qrs.push(qr),
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
  };
  const failNextMessage = () =>
    new Promise<void>((resolve) => {
      failure = resolve;
    });
  return { rec, handlers, failNextMessage };
}

/** A Baileys session on a fake socket that WhatsApp has just opened. */
export async function connectedSession(db: Db, whatsappId: number): Promise<Rig> {
  const { sockets, downloads, factory } = fakeBaileys();
  const { rec, handlers, failNextMessage } = recordingHandlers();
  const session = factory({ whatsappId, db, handlers, logger: silentLogger() });
  await session.start();
  const socket = sockets[0];
  socket.open();
  return { session, sockets, socket, rec, downloads, factory, failNextMessage };
}
