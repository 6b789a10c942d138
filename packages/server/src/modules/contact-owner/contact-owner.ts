import { and, eq, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { contacts, tickets, users } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import { recordAudit } from "../audit/audit.js";
import { getSettingValue } from "../settings/settings.repo.js";

/**
 * Issue 23 §5: a contact's owner, the agent whose customer it is. These functions write it inside
 * the caller's transaction, with no permission check: the service (a person's request), the
 * resolve (the setting `ownerOnResolve`) and, later, automation rules ("set the contact's owner")
 * call them, and decide who may.
 */

export interface OwnerChange {
  contactId: number;
  /** The owner before, and after (null: none). */
  from: number | null;
  to: number | null;
  changed: boolean;
}

export type OwnerSource = "manual" | "resolve" | "rule" | "import";

/**
 * Make `userId` (null: nobody) the contact's owner. Locks the contact; `onlyIfNone` leaves an owned
 * contact as it is (a rule that must not take a customer from an agent). Unknown contact or user:
 * ERR_NO_CONTACT_FOUND, ERR_NO_USER_FOUND. A change is recorded in the audit trail.
 */
export async function setContactOwner(
  tx: Db,
  contactId: number,
  userId: number | null,
  options: { source: OwnerSource; onlyIfNone?: boolean; check?: (currentOwner: number | null) => void },
): Promise<OwnerChange> {
  const [contact] = await tx
    .select({ id: contacts.id, ownerUserId: contacts.ownerUserId })
    .from(contacts)
    .where(eq(contacts.id, contactId))
    .for("update");
  if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
  const from = contact.ownerUserId;
  options.check?.(from);
  if (from === userId || (options.onlyIfNone && from !== null)) return { contactId, from, to: from, changed: false };
  if (userId !== null) {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
    if (!user) throw new AppError("ERR_NO_USER_FOUND");
  }
  await tx.update(contacts).set({ ownerUserId: userId, updatedAt: new Date() }).where(eq(contacts.id, contactId));
  await recordAudit(tx, {
    action: "contact.ownerChanged",
    targetType: "contact",
    targetId: contactId,
    details: { from, to: userId, source: options.source },
  });
  return { contactId, from, to: userId, changed: true };
}

/** Whether the first agent who resolves an unowned contact's ticket becomes its owner (off by default). */
export async function ownerOnResolve(db: Db): Promise<boolean> {
  return (await getSettingValue(db, "ownerOnResolve")) === "enabled";
}

/**
 * At a resolve, with the setting on: the agent becomes the owner of the ticket's contact when it
 * has none (a group is nobody's customer). True when they did.
 */
export async function claimOnResolve(tx: Db, contactId: number, userId: number): Promise<boolean> {
  if (!(await ownerOnResolve(tx))) return false;
  const claimed = await tx
    .update(contacts)
    .set({ ownerUserId: userId, updatedAt: new Date() })
    .where(and(eq(contacts.id, contactId), isNull(contacts.ownerUserId), eq(contacts.isGroup, false)))
    .returning({ id: contacts.id });
  if (!claimed.length) return false;
  await recordAudit(tx, {
    action: "contact.ownerChanged",
    targetType: "contact",
    targetId: contactId,
    details: { from: null, to: userId, source: "resolve" },
  });
  return true;
}

/** Whether any waiting, unassigned ticket has an owned contact (the routing pass skips its work when none). */
export async function ownedTicketsWaiting(db: Db): Promise<boolean> {
  const rows = await db
    .select({ id: tickets.id })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(and(eq(tickets.status, "pending"), isNull(tickets.userId), isNotNull(contacts.ownerUserId)))
    .limit(1);
  return rows.length > 0;
}
