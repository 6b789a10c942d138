import { randomBytes } from "node:crypto";
import type { Profile } from "@zapdesk/core";
import { hashPassword } from "../src/lib/passwords.js";
import { insertContact } from "../src/modules/contacts/contacts.repo.js";
import { insertQueue } from "../src/modules/queues/queues.repo.js";
import { insertUser, setUserQueues } from "../src/modules/users/users.repo.js";
import type { TestApp } from "./harness.js";

export const PASSWORD = "secret-pass";
let passwordHash: Promise<string> | undefined;
const unique = () => randomBytes(4).toString("hex");

export interface TestUser {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  token: string;
  /** Authorization header for app.inject. */
  auth: { authorization: string };
}

/** A user straight in the database (no HTTP), with a signed access token. */
export async function makeUser(
  t: TestApp,
  overrides: { profile?: Profile; queueIds?: number[]; name?: string; email?: string } = {},
): Promise<TestUser> {
  passwordHash ??= hashPassword(PASSWORD);
  const row = await insertUser(t.database.db, {
    name: overrides.name ?? `User ${unique()}`,
    email: overrides.email ?? `user-${unique()}@zapdesk.test`,
    passwordHash: await passwordHash,
    profile: overrides.profile ?? "user",
  });
  if (overrides.queueIds?.length) await setUserQueues(t.database.db, row.id, overrides.queueIds);
  const token = await t.services.tokens.signAccess(row.id);
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    profile: row.profile as Profile,
    token,
    auth: { authorization: `Bearer ${token}` },
  };
}

export const makeAdmin = (t: TestApp, overrides: { queueIds?: number[] } = {}) => makeUser(t, { ...overrides, profile: "admin" });

export async function makeQueue(t: TestApp, overrides: { name?: string; color?: string; greetingMessage?: string } = {}) {
  return insertQueue(t.database.db, {
    name: overrides.name ?? `Queue ${unique()}`,
    color: overrides.color ?? `#${randomBytes(3).toString("hex")}`,
    greetingMessage: overrides.greetingMessage ?? "",
  });
}

export async function makeContact(t: TestApp, overrides: { name?: string; number?: string; email?: string } = {}) {
  return insertContact(t.database.db, {
    name: overrides.name ?? `Contact ${unique()}`,
    number: overrides.number ?? `55${String(Date.now()).slice(-6)}${Math.floor(Math.random() * 1e6)}`,
    email: overrides.email ?? "",
  });
}
