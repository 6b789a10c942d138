import { randomBytes } from "node:crypto";
import {
  type Actor,
  can,
  WEBHOOK_DELIVERIES_PAGE_SIZE,
  type Webhook,
  type WebhookCreated,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookSecret,
  type webhookDeliveryListQuerySchema,
  type webhookInputSchema,
  type webhookUpdateSchema,
} from "@zapdesk/core";
import type { z } from "zod";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import type { Clock } from "../../lib/clock.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { getSettingValue } from "../settings/settings.repo.js";
import { assertAllowedTarget } from "./target-guard.js";
import * as repo from "./webhooks.repo.js";

const newSecret = () => `whsec_${randomBytes(24).toString("base64url")}`;
const hintOf = (secret: string) => secret.slice(-4);

export const allowsPrivateTargets = async (db: Db) => (await getSettingValue(db, "webhookAllowPrivate")) === "enabled";

function present(row: repo.WebhookRow, last?: repo.LastDelivery): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEvent[],
    enabled: row.enabled,
    secretHint: row.secretHint,
    lastDelivery: last
      ? { status: last.status as WebhookDelivery["status"], responseStatus: last.responseStatus, at: last.at.toISOString() }
      : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentDelivery(row: repo.DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhookId,
    event: row.event as WebhookEvent,
    status: row.status as WebhookDelivery["status"],
    attempt: row.attempts,
    responseStatus: row.responseStatus,
    latencyMs: row.latencyMs,
    responseSnippet: row.responseSnippet,
    error: row.error,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: row.status === "pending" ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Outbound webhooks, admin-only (`webhooks:manage`). The secret leaves the server once, at creation or rotation. */
export function createWebhookService(deps: { db: Db; secrets: SecretBox; clock: Clock; onResend?: () => void }) {
  const { db, secrets } = deps;
  const allow = (actor: Actor) => {
    if (!can(actor, "webhooks:manage")) throw new AppError("ERR_NO_PERMISSION");
  };
  const found = async (id: number) => {
    const row = await repo.findWebhook(db, id);
    if (!row) throw new AppError("ERR_NO_WEBHOOK_FOUND");
    return row;
  };
  const withLast = async (row: repo.WebhookRow) => present(row, (await repo.lastDeliveries(db, [row.id])).get(row.id));

  return {
    async list(actor: Actor): Promise<{ webhooks: Webhook[] }> {
      allow(actor);
      const rows = await repo.listWebhooks(db);
      const last = await repo.lastDeliveries(
        db,
        rows.map((r) => r.id),
      );
      return { webhooks: rows.map((row) => present(row, last.get(row.id))) };
    },

    async get(actor: Actor, id: number): Promise<Webhook> {
      allow(actor);
      return withLast(await found(id));
    },

    async create(actor: Actor, input: z.output<typeof webhookInputSchema>): Promise<WebhookCreated> {
      allow(actor);
      await assertAllowedTarget(input.url, await allowsPrivateTargets(db));
      const secret = newSecret();
      const row = await repo.insertWebhook(db, {
        url: input.url,
        events: input.events,
        enabled: input.enabled,
        secret: secrets.seal(secret),
        secretHint: hintOf(secret),
      });
      return { ...present(row), secret };
    },

    async update(actor: Actor, id: number, input: z.output<typeof webhookUpdateSchema>): Promise<Webhook> {
      allow(actor);
      const current = await found(id);
      if (input.url !== undefined && input.url !== current.url)
        await assertAllowedTarget(input.url, await allowsPrivateTargets(db));
      const row = await db.transaction(async (tx) => {
        const updated = await repo.updateWebhook(tx, id, input);
        if (updated && current.enabled && !updated.enabled) await repo.failPending(tx, id, deps.clock.now());
        return updated;
      });
      if (!row) throw new AppError("ERR_NO_WEBHOOK_FOUND");
      return withLast(row);
    },

    async remove(actor: Actor, id: number): Promise<void> {
      allow(actor);
      if (!(await repo.deleteWebhook(db, id))) throw new AppError("ERR_NO_WEBHOOK_FOUND");
    },

    /** A new secret at once: deliveries from now on are signed with it. */
    async rotateSecret(actor: Actor, id: number): Promise<WebhookSecret> {
      allow(actor);
      await found(id);
      const secret = newSecret();
      const row = await repo.updateWebhook(db, id, { secret: secrets.seal(secret), secretHint: hintOf(secret) });
      if (!row) throw new AppError("ERR_NO_WEBHOOK_FOUND");
      return { id, secret, secretHint: row.secretHint };
    },

    async deliveries(actor: Actor, id: number, query: z.output<typeof webhookDeliveryListQuerySchema>) {
      allow(actor);
      await found(id);
      const limit = WEBHOOK_DELIVERIES_PAGE_SIZE;
      const { rows, count } = await repo.listDeliveries(db, id, {
        status: query.status,
        limit,
        offset: (query.pageNumber - 1) * limit,
      });
      return { deliveries: rows.map(presentDelivery), count, hasMore: count > query.pageNumber * limit };
    },

    /** A failed delivery is queued again (same body, same signature scheme, a new retry window). */
    async resend(actor: Actor, deliveryId: number): Promise<WebhookDelivery> {
      allow(actor);
      const current = await repo.findDelivery(db, deliveryId);
      if (!current) throw new AppError("ERR_NO_WEBHOOK_DELIVERY_FOUND");
      const row = await repo.requeueFailed(db, deliveryId);
      if (!row) throw new AppError("ERR_WEBHOOK_DELIVERY_NOT_FAILED");
      deps.onResend?.();
      return presentDelivery(row);
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
