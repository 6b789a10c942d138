import { z } from "zod";
import { idParam } from "./common.js";

/**
 * Issue 22 §4: what the audit trail records. Each name is `subject.verb`; the web translates them
 * under `audit.actions`.
 */
export const AUDIT_ACTIONS = [
  "auth.login",
  "auth.loginFailed",
  "auth.logout",
  "auth.twoFactorFailed",
  "twoFactor.enabled",
  "twoFactor.disabled",
  "twoFactor.reset",
  "twoFactor.recoveryCodeUsed",
  "twoFactor.recoveryCodesRenewed",
  "session.ended",
  "session.endedAll",
  "user.created",
  "user.updated",
  "user.passwordChanged",
  "user.deleted",
  "setting.changed",
  "apiToken.rotated",
  "queue.created",
  "queue.updated",
  "queue.deleted",
  "closingReason.created",
  "closingReason.updated",
  "closingReason.deleted",
  "macro.created",
  "macro.updated",
  "macro.deleted",
  "macro.ran",
  "rule.created",
  "rule.updated",
  "rule.deleted",
  "connection.created",
  "connection.updated",
  "connection.deleted",
  "contact.deleted",
  "contact.numberChanged",
  "contact.merged",
  "contact.ownerChanged",
  "contact.dataExported",
  "contact.erased",
  "contacts.exported",
  "ticket.deleted",
  "message.deleted",
  "backup.created",
  "backup.downloaded",
  "backup.restored",
  "audit.exported",
  "retention.policyChanged",
  "retention.run",
  "legalHold.placed",
  "legalHold.released",
  "consent.settingsChanged",
  "menu.updated",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const auditEntrySchema = z.object({
  id: z.number(),
  userId: z.number().nullable(),
  userName: z.string(),
  userEmail: z.string(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  ip: z.string(),
  userAgent: z.string(),
  createdAt: z.iso.datetime(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** Filters of the audit screen and of its CSV export; `from`/`to` are instants (the web sends the day's bounds). */
export const auditFilterSchema = z.strictObject({
  userId: z.coerce.number().int().positive().optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  targetType: z.string().trim().min(1).max(50).optional(),
  targetId: z.string().trim().min(1).max(100).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export const auditListQuerySchema = auditFilterSchema.extend({
  /** Keyset paging: the id of the last entry of the previous page (entries come newest first). */
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const auditListSchema = z.object({
  entries: z.array(auditEntrySchema),
  /** Pass as `before` for the next page; null at the end. */
  nextBefore: z.number().nullable(),
});
export type AuditList = z.infer<typeof auditListSchema>;

/** Issue 22 §5: one sign-in of a user, as their "Sessions" dialog shows it. */
export const sessionInfoSchema = z.object({
  id: z.string(),
  userAgent: z.string(),
  ip: z.string(),
  createdAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
  /** The session of the request asking (ending it signs this device out). */
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

export const sessionListSchema = z.object({ sessions: z.array(sessionInfoSchema) });

export const sessionParamsSchema = z.strictObject({ id: z.uuid() });

export const userSessionsParamsSchema = z.strictObject({ id: idParam });

export const sessionsEndedSchema = z.object({ ended: z.number() });
