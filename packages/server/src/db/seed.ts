import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { hashPassword } from "../lib/passwords.js";
import type { Db } from "./client.js";
import { settings, users } from "./schema.js";

/** A fresh secret for the API token endpoint (seeded once, rotated by an admin). */
export const newApiToken = () => randomBytes(24).toString("base64url");

/** Values for a fresh install; an existing install keeps what it stored. */
export const DEFAULT_SETTINGS: Record<string, () => string> = {
  // Closed until the first admin opens it in Settings: a stranger cannot sign up and read contacts.
  userCreation: () => "disabled",
  userApiToken: newApiToken,
  timeCreateNewTicket: () => "7200",
  call: () => "enabled",
  CheckMsgIsGroup: () => "disabled",
  protocolWebhookUrl: () => "",
  salesPageUrl: () => "",
  communityPageUrl: () => "",
  // Issue 11: outbound webhooks never reach private or loopback addresses unless an admin allows it.
  webhookAllowPrivate: () => "disabled",
  // Issue 13: tickets at the greeting menu are for admins unless an admin shows them to agents.
  showChoosingQueue: () => "disabled",
  // Issue 23 §5: owners are set by hand (or rules) unless an admin lets resolving make them.
  ownerOnResolve: () => "disabled",
  // Issue 22: the protocol webhook is guarded like the outbound webhooks.
  protocolWebhookAllowPrivate: () => "disabled",
  // Issue 22 §5: a second factor is each user's choice until an admin requires it.
  twoFactorRequired: () => "off",
};

export interface SeedResult {
  /** Set only when the admin was created with a generated password, to print once. */
  generatedAdminPassword?: string;
  adminCreated: boolean;
}

/** Idempotent: missing settings are added, the admin only on an empty users table. */
export async function seed(db: Db, admin: { email: string; password?: string; name: string }): Promise<SeedResult> {
  const rows = Object.entries(DEFAULT_SETTINGS).map(([key, value]) => ({ key, value: value() }));
  await db.insert(settings).values(rows).onConflictDoNothing();

  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
  if (count > 0) return { adminCreated: false };
  const password = admin.password ?? randomBytes(9).toString("base64url");
  await db
    .insert(users)
    .values({ name: admin.name, email: admin.email, passwordHash: await hashPassword(password), profile: "admin" })
    .onConflictDoNothing();
  return { adminCreated: true, generatedAdminPassword: admin.password ? undefined : password };
}
