import { randomBytes } from "node:crypto";
import {
  type Actor,
  CHANNEL_CAPABILITIES,
  type Connection,
  type ConnectionProvider,
  can,
  type connectionInputSchema,
  type connectionUpdateSchema,
  redactConnection,
} from "@zapdesk/core";
import type { z } from "zod";
import type { ConnectionState } from "../../channels/session-types.js";
import type { Db } from "../../db/client.js";
import { AppError, fieldError } from "../../lib/app-error.js";
import { constraintName, isUniqueViolation } from "../../lib/pg-errors.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { Publisher } from "../../realtime/publisher.js";
import { recordAudit } from "../audit/audit.js";
import { existingQueueIds } from "../queues/queues.repo.js";
import { presentConnection } from "./connections.presenter.js";
import * as repo from "./connections.repo.js";
import { inboundLag } from "./inbound-log.repo.js";
import { restrictionAfter } from "./restriction-state.js";

/** What the connection service needs from the session manager (the owner of live sessions). */
export interface SessionControl {
  start(id: number): Promise<void>;
  requestNewQr(id: number): Promise<void>;
  disconnect(id: number): Promise<void>;
  remove(id: number): Promise<void>;
  isConnected(id: number): boolean;
  spooled(id: number): number;
}

/** Pacing a new connection starts with: QR sessions about one send a second, as peers do against bans. */
const DEFAULT_PACING: Record<ConnectionProvider, { minGapMs: number; jitterMs: number }> = {
  baileys: { minGapMs: 1000, jitterMs: 1000 },
  simulator: { minGapMs: 0, jitterMs: 0 },
  cloud: { minGapMs: 0, jitterMs: 0 },
};

const ACTIVITY_WRITE_MS = 10_000;

const duplicateName = () => fieldError("name", "A connection with this name already exists");
const duplicatePhone = () => fieldError("cloud.phoneNumberId", "Another connection already uses this phone number id");

/** A token Meta echoes in the webhook handshake: random, URL-safe, shown to the admin to copy. */
const newVerifyToken = () => randomBytes(24).toString("base64url");

export function createConnectionService(deps: {
  db: Db;
  events: Publisher;
  sessions: () => SessionControl;
  secrets: SecretBox;
  /** The public origin (PUBLIC_URL), for webhook URLs shown in realtime events. */
  publicUrl?: string;
  /** WhatsApp lifted a restriction: the messages held by it may go (the outbox). */
  onNewChatsAllowed?(id: number): void;
}) {
  const { db, events, secrets } = deps;
  const lastTouch = new Map<number, number>();

  function assertManager(actor: Actor) {
    if (!can(actor, "connections:manage")) throw new AppError("ERR_NO_PERMISSION");
  }

  async function load(id: number): Promise<repo.ConnectionWithQueues> {
    const row = await repo.findConnection(db, id);
    if (!row) throw new AppError("ERR_NO_WAPP_FOUND");
    return row;
  }

  const originOf = (origin?: string) => (deps.publicUrl ?? origin ?? "").replace(/\/+$/, "");

  function forActor(actor: Actor, connection: Connection): Connection {
    return can(actor, "connections:viewQrcode") ? connection : redactConnection(connection);
  }

  async function validate(values: { name?: string; queueIds?: number[]; greetingMessage?: string }, exceptId?: number) {
    if (values.name) {
      const clash = await repo.findConnectionByName(db, values.name);
      if (clash && clash.id !== exceptId) throw duplicateName();
    }
    if (values.queueIds) {
      if ((await existingQueueIds(db, values.queueIds)).length !== values.queueIds.length) {
        throw fieldError("queueIds", "Unknown queue");
      }
      // With two or more queues the customer gets a menu, which needs a greeting to introduce it.
      if (values.queueIds.length > 1 && !values.greetingMessage?.trim()) throw new AppError("ERR_WAPP_GREETING_REQUIRED");
    }
  }

  const translateUnique = (error: unknown) => {
    if (!isUniqueViolation(error)) throw error;
    throw constraintName(error) === "whatsapps_cloud_phone_key" ? duplicatePhone() : duplicateName();
  };

  /** As the API shows it to admins, with the connection's inbound backlog (health). */
  async function presentFull(row: repo.ConnectionWithQueues, origin?: string) {
    return presentConnection(row, {
      origin: originOf(origin),
      lag: await inboundLag(db, row.id),
      spooled: deps.sessions().spooled(row.id),
    });
  }

  async function publish(row: repo.ConnectionWithQueues) {
    events.publish("whatsapp", { action: "update", whatsapp: await presentFull(row) });
  }

  /** Cloud API values as stored: secrets sealed, a verify token generated when none was given. */
  function cloudColumns(
    cloud: NonNullable<z.output<typeof connectionUpdateSchema>["cloud"]>,
    current?: repo.ConnectionRow,
  ): Partial<repo.ConnectionRow> {
    return {
      cloudPhoneNumberId: cloud.phoneNumberId ?? current?.cloudPhoneNumberId,
      cloudBusinessAccountId: cloud.businessAccountId ?? current?.cloudBusinessAccountId,
      cloudAccessToken: cloud.accessToken ? secrets.seal(cloud.accessToken) : current?.cloudAccessToken,
      cloudAppSecret: cloud.appSecret ? secrets.seal(cloud.appSecret) : current?.cloudAppSecret,
      cloudVerifyToken: cloud.verifyToken ?? current?.cloudVerifyToken ?? newVerifyToken(),
    };
  }

  return {
    async list(actor: Actor, origin?: string): Promise<Connection[]> {
      const rows = await repo.listConnections(db);
      const lag = can(actor, "connections:viewQrcode") ? await repo.inboundLagByConnection(db) : new Map();
      return rows.map((row) =>
        forActor(
          actor,
          presentConnection(row, { origin: originOf(origin), lag: lag.get(row.id), spooled: deps.sessions().spooled(row.id) }),
        ),
      );
    },

    async get(actor: Actor, id: number, origin?: string): Promise<Connection> {
      return forActor(actor, await presentFull(await load(id), origin));
    },

    async create(actor: Actor, input: z.output<typeof connectionInputSchema>, origin?: string): Promise<Connection> {
      assertManager(actor);
      await validate(input);
      const pacing = input.pacing ?? DEFAULT_PACING[input.provider];
      const id = await db
        .transaction(async (tx) => {
          // The first connection is the default whatever was asked: there must always be one.
          const isDefault = input.isDefault || (await repo.countConnections(tx)) === 0;
          const row = await repo.insertConnection(tx, {
            name: input.name,
            provider: input.provider,
            greetingMessage: input.greetingMessage,
            farewellMessage: input.farewellMessage,
            ratingMessage: input.ratingMessage,
            ratingTimeoutMinutes: input.ratingTimeoutMinutes,
            isDefault: false,
            pairingPhone: CHANNEL_CAPABILITIES[input.provider].pairingCode ? (input.pairingPhone ?? null) : null,
            sendMinGapMs: pacing.minGapMs,
            sendJitterMs: pacing.jitterMs,
            ...(input.provider === "cloud" && input.cloud ? cloudColumns(input.cloud) : {}),
          });
          if (isDefault) {
            await repo.clearOtherDefaults(tx, row.id);
            await repo.updateConnection(tx, row.id, { isDefault: true });
          }
          await repo.setConnectionQueues(tx, row.id, input.queueIds);
          // Issue 22 §4; the Cloud API secrets are dropped from the details (audit.ts).
          await recordAudit(tx, {
            action: "connection.created",
            targetType: "connection",
            targetId: row.id,
            details: { ...input },
          });
          return row.id;
        })
        .catch(translateUnique);
      const row = await load(id);
      await publish(row);
      await deps.sessions().start(id);
      return presentFull(await load(id), origin);
    },

    async update(actor: Actor, id: number, input: z.output<typeof connectionUpdateSchema>, origin?: string): Promise<Connection> {
      assertManager(actor);
      const current = await load(id);
      const provider = current.provider as ConnectionProvider;
      const queueIds = input.queueIds ?? current.queues.map((q) => q.id);
      const greetingMessage = input.greetingMessage ?? current.greetingMessage;
      await validate({ name: input.name, queueIds, greetingMessage }, id);
      if (input.isDefault === false && current.isDefault) throw new AppError("ERR_NO_OTHER_WHATSAPP");
      if (input.cloud && provider !== "cloud") throw fieldError("cloud", "Only for Cloud API connections");
      const credentialsChanged =
        input.cloud?.accessToken !== undefined ||
        (input.cloud?.phoneNumberId !== undefined && input.cloud.phoneNumberId !== current.cloudPhoneNumberId);
      await db
        .transaction(async (tx) => {
          if (input.isDefault) await repo.clearOtherDefaults(tx, id);
          await repo.updateConnection(tx, id, {
            name: input.name,
            greetingMessage: input.greetingMessage,
            farewellMessage: input.farewellMessage,
            ratingMessage: input.ratingMessage,
            ratingTimeoutMinutes: input.ratingTimeoutMinutes,
            isDefault: input.isDefault,
            ...(input.pairingPhone !== undefined && CHANNEL_CAPABILITIES[provider].pairingCode
              ? { pairingPhone: input.pairingPhone }
              : {}),
            ...(input.pacing ? { sendMinGapMs: input.pacing.minGapMs, sendJitterMs: input.pacing.jitterMs } : {}),
            ...(input.cloud ? cloudColumns(input.cloud, current) : {}),
          });
          if (input.queueIds) await repo.setConnectionQueues(tx, id, input.queueIds);
          await recordAudit(tx, {
            action: "connection.updated",
            targetType: "connection",
            targetId: id,
            details: { ...input, credentialsChanged },
          });
        })
        .catch(translateUnique);
      // New Cloud API credentials are checked at once: the status tells whether they work.
      if (credentialsChanged) await deps.sessions().start(id);
      const row = await load(id);
      await publish(row);
      return presentFull(row, origin);
    },

    async remove(actor: Actor, id: number): Promise<void> {
      assertManager(actor);
      const current = await load(id);
      await deps.sessions().remove(id);
      await db.transaction(async (tx) => {
        await repo.deleteConnection(tx, id);
        await recordAudit(tx, {
          action: "connection.deleted",
          targetType: "connection",
          targetId: id,
          details: { name: current.name, provider: current.provider },
        });
        if (current.isDefault) {
          const next = await repo.oldestConnection(tx);
          if (next) await repo.updateConnection(tx, next.id, { isDefault: true });
        }
      });
      events.publish("whatsapp", { action: "delete", whatsappId: id });
    },

    /** POST /whatsappsession/:id — try again (a Cloud API connection checks its token again). */
    async startSession(actor: Actor, id: number): Promise<void> {
      assertManager(actor);
      await load(id);
      await deps.sessions().start(id);
    },

    /**
     * PUT /whatsappsession/:id — forget the pairing and pair again: a new QR code, or a code for
     * the given phone number. Only for connections that pair (not the Cloud API).
     */
    async newQrCode(actor: Actor, id: number, options: { pairingPhone?: string | null } = {}): Promise<void> {
      assertManager(actor);
      const current = await load(id);
      const capabilities = CHANNEL_CAPABILITIES[current.provider as ConnectionProvider];
      if (!capabilities.qrCode) throw new AppError("ERR_WAPP_NOT_SUPPORTED");
      if (options.pairingPhone !== undefined) {
        if (options.pairingPhone && !capabilities.pairingCode) throw new AppError("ERR_WAPP_NOT_SUPPORTED");
        await repo.updateConnection(db, id, { pairingPhone: options.pairingPhone });
      }
      await deps.sessions().requestNewQr(id);
    },

    /** DELETE /whatsappsession/:id — log the phone out. */
    async disconnect(actor: Actor, id: number): Promise<void> {
      assertManager(actor);
      await load(id);
      await deps.sessions().disconnect(id);
    },

    /** Called by the session manager: persist the new state, then tell the clients. */
    async applyState(id: number, state: ConnectionState): Promise<void> {
      const { reconnecting, lastError, restriction: report, ...rest } = state;
      const values: Partial<repo.ConnectionRow> = { ...rest };
      // The state reporter writes a connection's states one at a time: read, merge, write is safe.
      const restriction = report ? await restrictionAfter(db, id, report) : undefined;
      if (restriction) values.restriction = restriction.after;
      // A connected or disconnected session has no QR code to show any more.
      if (state.status && state.status !== "qrcode" && state.qrcode === undefined) values.qrcode = "";
      if (lastError) {
        values.lastError = lastError.slice(0, 500);
        values.lastErrorAt = new Date();
      }
      const updated = await repo.updateConnection(db, id, values);
      if (!updated) return;
      if (reconnecting) await repo.countReconnect(db, id, new Date().toISOString().slice(0, 10));
      const row = await load(id);
      const session = await presentFull(row);
      events.publish("whatsappSession", { action: "update", session });
      if (restriction?.change.worse) events.publish("connectionRestricted", { whatsapp: session });
      if (restriction?.change.lifted) deps.onNewChatsAllowed?.(id);
    },

    /** Something arrived on the connection: its "last event" (written at most every few seconds). */
    touch(id: number): void {
      const now = Date.now();
      if (now - (lastTouch.get(id) ?? 0) < ACTIVITY_WRITE_MS) return;
      lastTouch.set(id, now);
      void repo.touchLastEvent(db, id, new Date(now)).catch(() => {});
    },

    /** GET /whatsappzdg: the id of the connected default connection. */
    async defaultConnectedId(): Promise<number> {
      const row = await repo.findDefaultConnection(db);
      if (!row) throw new AppError("ERR_NO_DEF_WAPP_FOUND");
      if (row.status !== "CONNECTED" || !deps.sessions().isConnected(row.id)) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
      return row.id;
    },

    async listAll(): Promise<repo.ConnectionWithQueues[]> {
      return repo.listConnections(db);
    },

    /** The secrets of a Cloud API connection, opened for the channel (never for a response). */
    openSecret(sealed: string | null): string {
      return sealed ? secrets.open(sealed) : "";
    },
  };
}

export type ConnectionService = ReturnType<typeof createConnectionService>;
