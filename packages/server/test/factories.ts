import { randomBytes } from "node:crypto";
import type { Profile } from "@zapdesk/core";
import { expect } from "vitest";
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

/** Sign in through the real route; returns the access token and the refresh cookie. */
export async function login(
  t: TestApp,
  credentials: { email: string; password?: string },
  remoteAddress = uniqueIp(),
): Promise<{ token: string; refresh: string; auth: { authorization: string } }> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    remoteAddress,
    payload: { email: credentials.email, password: credentials.password ?? PASSWORD },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const refresh = res.cookies.find((c) => c.name === "jrt")?.value;
  if (!refresh) throw new Error("login set no refresh cookie");
  const { token } = res.json() as { token: string };
  return { token, refresh, auth: { authorization: `Bearer ${token}` } };
}

/** A fresh client address per call, so rate limits shared through Redis never couple tests. */
let addressCounter = 0;
export function uniqueIp(): string {
  addressCounter++;
  const seed = randomBytes(2);
  return `10.${seed[0]}.${seed[1]}.${(addressCounter % 250) + 1}`;
}

/** A tag created through the API by `admin` (as an agent's screen sees it: id, name, color). */
export async function makeTag(
  t: TestApp,
  admin: TestUser,
  name = `Tag ${unique()}`,
): Promise<{ id: number; name: string; color: string }> {
  const res = await t.app.inject({ method: "POST", url: "/api/tags", headers: admin.auth, payload: { name, color: "#336699" } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
