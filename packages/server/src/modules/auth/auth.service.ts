import type { LoginInput, SignupInput, User } from "@zapdesk/core";
import type { Db } from "../../db/client.js";
import { AppError, fieldError } from "../../lib/app-error.js";
import { hashPassword, verifyPassword } from "../../lib/passwords.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import type { RateLimiter } from "../../lib/rate-limiter.js";
import type { Publisher } from "../../realtime/publisher.js";
import { getSettingValue } from "../settings/settings.repo.js";
import { presentUser } from "../users/users.presenter.js";
import * as usersRepo from "../users/users.repo.js";
import type { TokenService } from "./tokens.js";

export interface AuthResult {
  token: string;
  user: User;
  refreshToken: string;
}

// A real hash of a random string: unknown emails cost the same time as wrong passwords.
const DUMMY_HASH = hashPassword(`dummy-${Math.random()}`);

export function createAuthService(deps: {
  db: Db;
  tokens: TokenService;
  events: Publisher;
  limiters: { ip: RateLimiter; email: RateLimiter };
}) {
  const { db, tokens, limiters } = deps;

  async function limit(ip: string, email: string) {
    const [byIp, byEmail] = await Promise.all([limiters.ip.hit(ip), limiters.email.hit(email.toLowerCase())]);
    if (!byIp.allowed || !byEmail.allowed) {
      const seconds = Math.ceil(Math.max(byIp.retryAfterMs, byEmail.retryAfterMs) / 1000);
      throw new AppError("ERR_RATE_LIMITED", { message: `Too many attempts. Try again in ${seconds} s.` });
    }
  }

  async function sessionFor(userId: number): Promise<AuthResult> {
    const user = await usersRepo.findUserById(db, userId);
    if (!user) throw new AppError("ERR_SESSION_EXPIRED");
    return {
      token: await tokens.signAccess(user.id),
      user: presentUser(user),
      refreshToken: await tokens.issueRefresh(user.id),
    };
  }

  return {
    async login(input: LoginInput, ip: string): Promise<AuthResult> {
      await limit(ip, input.email);
      const row = await usersRepo.findUserByEmail(db, input.email);
      const ok = await verifyPassword(row?.passwordHash ?? (await DUMMY_HASH), input.password);
      if (!row || !ok) throw new AppError("ERR_INVALID_CREDENTIALS");
      await limiters.email.reset(input.email.toLowerCase());
      return sessionFor(row.id);
    },

    async refresh(refreshToken: string | undefined): Promise<AuthResult> {
      if (!refreshToken) throw new AppError("ERR_SESSION_EXPIRED");
      const rotated = await tokens.rotateRefresh(refreshToken);
      const user = await usersRepo.findUserById(db, rotated.userId);
      if (!user) throw new AppError("ERR_SESSION_EXPIRED");
      return { token: await tokens.signAccess(user.id), user: presentUser(user), refreshToken: rotated.refreshToken };
    },

    async logout(refreshToken: string | undefined): Promise<void> {
      if (refreshToken) await tokens.revokeRefresh(refreshToken);
    },

    /** Signup always creates an agent (profile `user`), and only while userCreation is enabled. */
    async signup(input: SignupInput, ip: string): Promise<User> {
      await limit(ip, input.email);
      if ((await getSettingValue(db, "userCreation")) !== "enabled") throw new AppError("ERR_USER_CREATION_DISABLED");
      if (await usersRepo.findUserByEmail(db, input.email)) throw fieldError("email", "An user with this email already exists");
      const passwordHash = await hashPassword(input.password);
      const row = await usersRepo
        .insertUser(db, { name: input.name, email: input.email, passwordHash, profile: "user" })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw fieldError("email", "An user with this email already exists");
          throw error;
        });
      const user = presentUser({ ...row, queues: [] });
      deps.events.publish("user", { action: "create", user });
      return user;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
