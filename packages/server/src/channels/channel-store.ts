import type { ConnectionProvider, ConnectionStatus } from "@zapdesk/core";
import type { InboundLog, LoggedEvent } from "./inbound-log.js";

/**
 * Everything the channels read and write in the database, and nothing more (issue 20 §3): the
 * channels never import tables. `modules/connections/channel-store.ts` implements it over drizzle;
 * the composition root (`conversations.ts`) hands it to the session manager and the Cloud webhooks.
 */
export interface ChannelStore {
  /** Baileys' auth state of a connection (design §5): one row per key. */
  auth(whatsappId: number): AuthRows;
  /** The connection's view of the durable inbound log. */
  inbox(whatsappId: number): InboundLog;
  /**
   * Pending events of a kind that nobody is working on (their process died, or the event is older
   * than `olderThanMs`), claimed for `leaseMs` so that several processes share them; oldest first.
   */
  claimStale(kind: string, options: StaleClaim): Promise<(LoggedEvent & { whatsappId: number })[]>;
  /** Scaled out: which process owns which connection (design §2). */
  leases: LeaseRows;
  /** Every connection, by id. */
  connectionIds(): Promise<number[]>;
  /** What a session needs to start a connection; undefined when it is gone. */
  connection(whatsappId: number): Promise<{ provider: ConnectionProvider; status: ConnectionStatus } | undefined>;
  /** The number a connection pairs by code instead of QR, as the admin typed it (null: by QR). */
  pairingPhone(whatsappId: number): Promise<string | null | undefined>;
  /** A Cloud API connection's settings, secrets still sealed; undefined when not Cloud API (or gone). */
  cloudAccount(whatsappId: number): Promise<SealedCloudAccount | undefined>;
  /** The Cloud API connection a phone number id belongs to. */
  cloudConnectionOf(phoneNumberId: string): Promise<number | undefined>;
  /** A stored message of the connection, by WhatsApp id: whether we sent it. */
  message(whatsappId: number, wid: string): Promise<{ fromMe: boolean } | undefined>;
  /** The provider data (`raw`) of stored messages, by WhatsApp id; messages without any are left out. */
  messageRaws(whatsappId: number, wids: string[]): Promise<Map<string, unknown>>;
  /**
   * Chats with an active (pending or open) ticket on the connection: every address the chat may
   * be stored under (the contact's number, its LID, and the number the LID store knows for a
   * contact stored by LID), with the time of its newest stored message (not notes).
   */
  activeChats(whatsappId: number): Promise<{ addresses: string[]; newest: Date | null }[]>;
}

export interface StaleClaim {
  olderThanMs: number;
  leaseMs: number;
  limit: number;
}

/** Auth rows of one connection; values are JSON-safe (the channel encodes its buffers). */
export interface AuthRows {
  /** The stored values of these keys; a key without a row is absent. */
  read(keys: string[]): Promise<Map<string, unknown>>;
  /** Upsert `upserts` and delete `deletes` in one transaction: all or nothing. */
  write(upserts: { key: string; value: unknown }[], deletes?: string[]): Promise<void>;
  /** Delete every row of the connection, or every row but the `except` key. */
  clear(options?: { except?: string }): Promise<void>;
}

/** The lease columns of the connections; times come from the database's clock. */
export interface LeaseRows {
  /** Extend every lease `owner` holds by `ttlMs`; the ids still held. */
  renew(owner: string, ttlMs: number): Promise<number[]>;
  /** Connections with no owner, or whose lease ran out. */
  orphans(): Promise<number[]>;
  /** Take the lease if free, expired or already `owner`'s; `force` takes it from a live owner too. */
  acquire(whatsappId: number, owner: string, ttlMs: number, force: boolean): Promise<boolean>;
  /** Give the lease up, if `owner` still holds it. */
  release(whatsappId: number, owner: string): Promise<void>;
  /** Whether `owner` holds the connection's lease right now. */
  holds(whatsappId: number, owner: string): Promise<boolean>;
}

/** A Cloud API connection's stored settings; the secrets are sealed (the connection service's SecretBox opens them). */
export interface SealedCloudAccount {
  phoneNumberId: string;
  businessAccountId: string | null;
  accessToken: string | null;
  appSecret: string | null;
  verifyToken: string | null;
}
