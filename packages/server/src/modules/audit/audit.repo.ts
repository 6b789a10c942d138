import type { AuditEntry, AuditFilter } from "@zapdesk/core";
import { and, desc, eq, gte, lt, lte, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { auditLog } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";

type Row = typeof auditLog.$inferSelect;

export function presentAudit(row: Row): AuditEntry {
  return {
    id: row.id,
    userId: row.userId,
    userName: row.userName,
    userEmail: row.userEmail,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    details: row.details ?? {},
    ip: row.ip,
    userAgent: row.userAgent,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A period that ends before it starts is a 400 (ERR_AUDIT_RANGE), checked before any streaming starts. */
export function checkRange(filter: AuditFilter): void {
  if (filter.from && filter.to && new Date(filter.from) > new Date(filter.to)) throw new AppError("ERR_AUDIT_RANGE");
}

function conditions(filter: AuditFilter, before?: number): SQL | undefined {
  checkRange(filter);
  const from = filter.from ? new Date(filter.from) : undefined;
  const to = filter.to ? new Date(filter.to) : undefined;
  return and(
    filter.userId !== undefined ? eq(auditLog.userId, filter.userId) : undefined,
    filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.targetType ? eq(auditLog.targetType, filter.targetType) : undefined,
    filter.targetId ? eq(auditLog.targetId, filter.targetId) : undefined,
    from ? gte(auditLog.createdAt, from) : undefined,
    to ? lte(auditLog.createdAt, to) : undefined,
    before !== undefined ? lt(auditLog.id, before) : undefined,
  );
}

/** One page, newest first, by keyset on the id (ids grow with time: one sequence, inserts only). */
export async function listAudit(db: Db, filter: AuditFilter, page: { before?: number; limit: number }) {
  const rows = await db
    .select()
    .from(auditLog)
    .where(conditions(filter, page.before))
    .orderBy(desc(auditLog.id))
    .limit(page.limit + 1);
  const more = rows.length > page.limit;
  const entries = rows.slice(0, page.limit).map(presentAudit);
  return { entries, nextBefore: more ? (entries.at(-1)?.id ?? null) : null };
}

/** Every matching entry, newest first, page by page (the CSV export streams them). */
export async function* allAudit(db: Db, filter: AuditFilter, pageSize = 500): AsyncGenerator<AuditEntry> {
  let before: number | undefined;
  for (;;) {
    const page = await listAudit(db, filter, { before, limit: pageSize });
    yield* page.entries;
    if (page.nextBefore === null) return;
    before = page.nextBefore;
  }
}

const CSV_COLUMNS = [
  "id",
  "createdAt",
  "userId",
  "userName",
  "userEmail",
  "action",
  "targetType",
  "targetId",
  "ip",
  "userAgent",
  "details",
] as const;

function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  // A cell a spreadsheet would run as a formula is prefixed (CSV injection).
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export async function* auditCsv(db: Db, filter: AuditFilter): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(",")}\n`;
  for await (const entry of allAudit(db, filter)) {
    yield `${CSV_COLUMNS.map((c) => csvCell(entry[c])).join(",")}\n`;
  }
}
