import type { ConnectionProvider } from "@zapdesk/core";
import type { FastifyBaseLogger } from "fastify";
import type {
  ChannelContext,
  ChannelHandlers,
  IdentityMapping,
  InboundCall,
  InboundMessage,
  MessageUpdate,
} from "../src/channels/channel.js";
import type { ConnectionState, InboundSink } from "../src/channels/session-manager.js";
import type { Db } from "../src/db/client.js";
import { whatsapps } from "../src/db/schema.js";
import { createChannelStore } from "../src/modules/connections/channel-store.js";

/** A logger that drops everything (pino-compatible shape, as Fastify and Baileys expect). */
export function silentLogger(): FastifyBaseLogger {
  const noop = () => {};
  const logger = {
    level: "silent",
    fatal: noop,
    error: noop,
    warn: noop,
    info: noop,
    debug: noop,
    trace: noop,
    silent: noop,
    child: () => logger,
  };
  return logger as unknown as FastifyBaseLogger;
}

/** Records what the channels deliver, as the pipeline and the connections service would receive it. */
export function recordingSink() {
  const messages: { whatsappId: number; message: InboundMessage }[] = [];
  const updates: { whatsappId: number; update: MessageUpdate }[] = [];
  const calls: { whatsappId: number; call: InboundCall }[] = [];
  const identities: { whatsappId: number; mapping: IdentityMapping }[] = [];
  const states: { whatsappId: number; state: ConnectionState }[] = [];
  const sink: InboundSink = {
    onMessage: async (whatsappId, message) => {
      messages.push({ whatsappId, message });
    },
    onUpdate: async (whatsappId, update) => {
      updates.push({ whatsappId, update });
    },
    onCall: async (whatsappId, call) => {
      calls.push({ whatsappId, call });
    },
    onIdentity: async (whatsappId, mapping) => {
      identities.push({ whatsappId, mapping });
    },
  };
  const onState = async (whatsappId: number, state: ConnectionState) => {
    states.push({ whatsappId, state });
  };
  const statuses = (whatsappId: number) =>
    states.filter((s) => s.whatsappId === whatsappId && s.state.status).map((s) => s.state.status);
  return { sink, onState, messages, updates, calls, identities, states, statuses };
}

let counter = 0;

export async function insertConnection(db: Db, provider: ConnectionProvider, name?: string): Promise<number> {
  counter += 1;
  const [row] = await db
    .insert(whatsapps)
    .values({ name: name ?? `Connection ${process.pid}-${Date.now()}-${counter}`, provider })
    .returning({ id: whatsapps.id });
  return row.id;
}

/** The context a session manager gives a channel, for tests that create a channel by hand. */
export function channelContext(
  db: Db,
  whatsappId: number,
  handlers: ChannelHandlers,
  overrides: Partial<ChannelContext> = {},
): ChannelContext {
  const store = createChannelStore(db);
  return {
    whatsappId,
    store,
    handlers,
    logger: silentLogger(),
    inbox: store.inbox(whatsappId),
    mediaMaxBytes: 64 * 1024 * 1024,
    ...overrides,
  };
}
