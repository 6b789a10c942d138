import type { Connection, ConnectionProvider, ConnectionStatus, ConnectionStatusReason } from "@zapdesk/core";
import type * as repo from "./connections.repo.js";

export interface PresentOptions {
  /** The public origin webhook URLs are built on ("https://desk.example.com"); a path only when unknown. */
  origin?: string;
  /** Pending inbound events of the connection (health). */
  lag?: { pending: number; oldestAt: Date | null };
  /** Events of the connection waiting in this process's spool for the database. */
  spooled?: number;
}

export const webhookPath = (id: number) => `/api/webhooks/whatsapp/${id}`;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * What an admin sees of a connection (the API and the realtime events); never a secret. Anyone
 * else gets it through core's redactConnection.
 */
export function presentConnection(row: repo.ConnectionWithQueues, options: PresentOptions = {}): Connection {
  const cloud =
    row.provider === "cloud"
      ? {
          phoneNumberId: row.cloudPhoneNumberId ?? "",
          businessAccountId: row.cloudBusinessAccountId ?? "",
          verifyToken: row.cloudVerifyToken ?? "",
          webhookUrl: `${options.origin ?? ""}${webhookPath(row.id)}`,
          accessTokenSet: !!row.cloudAccessToken,
          appSecretSet: !!row.cloudAppSecret,
        }
      : null;
  return {
    id: row.id,
    name: row.name,
    provider: row.provider as ConnectionProvider,
    status: row.status as ConnectionStatus,
    statusReason: (row.statusReason as ConnectionStatusReason | null) ?? null,
    qrcode: row.qrcode,
    pairingCode: row.pairingCode,
    pairingPhone: row.pairingPhone,
    retries: row.retries,
    isDefault: row.isDefault,
    greetingMessage: row.greetingMessage,
    farewellMessage: row.farewellMessage,
    ratingMessage: row.ratingMessage,
    ratingTimeoutMinutes: row.ratingTimeoutMinutes,
    updatedAt: row.updatedAt.toISOString(),
    queues: row.queues.map(({ id, name, color }) => ({ id, name, color })),
    pacing: { minGapMs: row.sendMinGapMs, jitterMs: row.sendJitterMs },
    cloud,
    health: {
      lastEventAt: iso(row.lastEventAt),
      pendingEvents: options.lag?.pending ?? 0,
      oldestPendingAt: iso(options.lag?.oldestAt ?? null),
      spooledEvents: options.spooled ?? 0,
      reconnectsToday: row.reconnectsDay === new Date().toISOString().slice(0, 10) ? row.reconnectsToday : 0,
      lastError: row.lastError,
      lastErrorAt: iso(row.lastErrorAt),
    },
    restriction: row.restriction ?? null,
  };
}
