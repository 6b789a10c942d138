import type { ConnectionProvider, ConnectionStatus, ConnectionStatusReason } from "@zapdesk/core";
import type { FastifyBaseLogger } from "fastify";
import type {
  ChannelFactories,
  ChannelSession,
  IdentityMapping,
  InboundCall,
  InboundMessage,
  MessageUpdate,
  RestrictionReport,
} from "./channel.js";
import type { ChannelStore } from "./channel-store.js";
import type { LeaseOptions } from "./session-lease.js";

export interface InboundSink {
  onMessage(whatsappId: number, message: InboundMessage): Promise<void>;
  onUpdate(whatsappId: number, update: MessageUpdate): Promise<void>;
  onCall(whatsappId: number, call: InboundCall): Promise<void>;
  onIdentity(whatsappId: number, mapping: IdentityMapping): Promise<void>;
}

export interface ConnectionState {
  status?: ConnectionStatus;
  qrcode?: string;
  pairingCode?: string;
  retries?: number;
  /** Why the status is what it is (null clears it). */
  statusReason?: ConnectionStatusReason | null;
  /** The last error the link reported (kept with its time for the health panel). */
  lastError?: string;
  /** The link dropped and is reconnecting: counted in today's reconnects. */
  reconnecting?: boolean;
  /** WhatsApp reported a restriction of the number (merged into what is known). */
  restriction?: RestrictionReport;
}

export interface SessionManagerDeps {
  /** What the sessions and their channels read and write in the database. */
  store: ChannelStore;
  /** One per kind of connection; a kind without one cannot be started (its connections stay DISCONNECTED). */
  factories: Partial<ChannelFactories>;
  logger: FastifyBaseLogger;
  sink: InboundSink;
  /** Persist and publish the connection's state (the connections service). */
  onState(whatsappId: number, state: ConnectionState): Promise<void>;
  backoff?: { initialMs: number; maxMs: number };
  /** Scaled out: own each connection through a DB lease (design §2). Absent: this process owns them all. */
  lease?: LeaseOptions;
  /** Largest inbound media a channel downloads, in bytes. */
  mediaMaxBytes: number;
  /** Issue 19: a folder for each connection's inbound spool (events received while the database is away). */
  spoolDir?: string;
  /** Something arrived on the connection (health: its last event). */
  onActivity?(whatsappId: number): void;
  /**
   * This process just took charge of the connection (at boot, or from an owner that stopped renewing
   * its lease): what the previous owner left half done is orphaned (the outbox releases its claims).
   */
  onAdopted?(whatsappId: number): Promise<void>;
}

export interface SessionManager {
  /** Boot: start every connection of the table except DISCONNECTED ones, which wait for an admin. */
  startAll(): Promise<void>;
  /** Create the session from its provider's factory and start it, replacing a running one. */
  start(whatsappId: number): Promise<void>;
  /** Log out and start fresh: a new QR. */
  requestNewQr(whatsappId: number): Promise<void>;
  /** Log out; DISCONNECTED, no reconnect. */
  disconnect(whatsappId: number): Promise<void>;
  /** Stop and forget (the connection was deleted). */
  remove(whatsappId: number): Promise<void>;
  /** The live, CONNECTED session; throws ERR_WAPP_NOT_INITIALIZED otherwise. */
  get(whatsappId: number): ChannelSession;
  isConnected(whatsappId: number): boolean;
  /** The provider of a connection this process manages, undefined when it does not know it. */
  provider(whatsappId: number): ConnectionProvider | undefined;
  /** The last status this process saw, undefined when it does not manage the connection. */
  status(whatsappId: number): ConnectionStatus | undefined;
  stopAll(): Promise<void>;
  /** Events of the connection waiting in this process's spool for the database. */
  spooled(whatsappId: number): number;
}
