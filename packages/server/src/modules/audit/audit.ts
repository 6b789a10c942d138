import { AsyncLocalStorage } from "node:async_hooks";
import type { AuditAction } from "@zapdesk/core";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Db } from "../../db/client.js";
import { auditLog } from "../../db/schema.js";

/**
 * Issue 22 §4: the audit trail. Services call `recordAudit` with the executor of the change's own
 * transaction (so the row commits or rolls back with it); who and from where come from the request
 * being served (an AsyncLocalStorage set for every route), or from `who` where there is no signed-in
 * user yet (sign-in and its failures).
 */
const requests = new AsyncLocalStorage<FastifyRequest>();

/** Every route's handler runs inside its request's context (a root hook, after `authenticate`). */
export function installAuditContext(app: FastifyInstance): void {
  app.addHook("preHandler", (request, _reply, done) => requests.run(request, done));
}

/** Keys whose values never go into the trail, at any depth. */
const SECRET_KEY = /pass(word)?|secret|token|hash|key|authorization|cookie/i;

/** Details as stored: secrets dropped, long strings cut, depth bounded. */
export function cleanDetails(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (typeof value === "string") return value.length > 500 ? `${value.slice(0, 500)}…` : value;
  if (typeof value !== "object") return value;
  if (depth > 3) return "…";
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => cleanDetails(v, depth + 1));
  if (value instanceof Date) return value.toISOString();
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (SECRET_KEY.test(key) || v === undefined) continue;
    out[key] = cleanDetails(v, depth + 1);
  }
  return out;
}

export interface AuditWho {
  userId: number | null;
  name?: string;
  email?: string;
}

export interface AuditEntryInput {
  action: AuditAction;
  targetType?: string;
  targetId?: string | number;
  details?: Record<string, unknown>;
  /** Who did it, when not the request's signed-in user (a sign-in, a job). */
  who?: AuditWho;
}

export async function recordAudit(executor: Db, entry: AuditEntryInput): Promise<void> {
  const request = requests.getStore();
  const user = request?.user;
  const who: AuditWho = entry.who ?? (user ? { userId: user.id, name: user.name, email: user.email } : { userId: null });
  await executor.insert(auditLog).values({
    userId: who.userId,
    userName: who.name ?? "",
    userEmail: who.email ?? "",
    action: entry.action,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId === undefined ? null : String(entry.targetId),
    details: (cleanDetails(entry.details ?? {}) as Record<string, unknown>) ?? {},
    ip: request?.ip ?? "",
    userAgent: String(request?.headers["user-agent"] ?? "").slice(0, 500),
  });
}
