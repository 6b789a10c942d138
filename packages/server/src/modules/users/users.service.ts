import {
  type Actor,
  can,
  isAdmin,
  normaliseProfile,
  PAGE_SIZE,
  type User,
  type userCreateSchema,
  type userListQuerySchema,
  type userUpdateSchema,
} from "@zapdesk/core";
import type { z } from "zod";
import type { Db } from "../../db/client.js";
import { AppError, fieldError } from "../../lib/app-error.js";
import { hashPassword } from "../../lib/passwords.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import type { Publisher } from "../../realtime/publisher.js";
import { recordAudit } from "../audit/audit.js";
import type { TokenService } from "../auth/tokens.js";
import { existingQueueIds } from "../queues/queues.repo.js";
import { releaseUserTickets } from "../tickets/tickets.repo.js";
import { presentUser } from "./users.presenter.js";
import * as repo from "./users.repo.js";

type CreateInput = z.output<typeof userCreateSchema>;
type UpdateInput = z.output<typeof userUpdateSchema>;

const sameIds = (a: number[], b: number[]) => a.length === b.length && a.every((id) => b.includes(id));
const duplicateEmail = () => fieldError("email", "An user with this email already exists");

export function createUserService(deps: {
  db: Db;
  events: Publisher;
  tokens: TokenService;
  /** Publish a ticket that changed as a side effect (released by a deleted agent). */
  announceTicket?: (ticketId: number) => Promise<void>;
}) {
  const { db, events, tokens } = deps;

  async function assertQueuesExist(ids: number[]) {
    const found = await existingQueueIds(db, ids);
    if (found.length !== ids.length) throw fieldError("queueIds", "Unknown queue");
  }

  async function assertEmailFree(email: string, exceptId?: number) {
    const clash = await repo.findUserByEmail(db, email);
    if (clash && clash.id !== exceptId) throw duplicateEmail();
  }

  async function load(id: number): Promise<User> {
    const row = await repo.findUserById(db, id);
    if (!row) throw new AppError("ERR_NO_USER_FOUND");
    return presentUser(row);
  }

  return {
    async list(query: z.output<typeof userListQuerySchema>) {
      const limit = PAGE_SIZE.users;
      const { rows, count } = await repo.listUsers(db, {
        search: query.searchParam,
        limit,
        offset: (query.pageNumber - 1) * limit,
      });
      return { users: rows.map(presentUser), count, hasMore: count > query.pageNumber * limit };
    },

    get: load,

    async create(actor: Actor, input: CreateInput): Promise<User> {
      if (!can(actor, "users:manage")) throw new AppError("ERR_NO_PERMISSION");
      await assertEmailFree(input.email);
      await assertQueuesExist(input.queueIds);
      const passwordHash = await hashPassword(input.password);
      const id = await db
        .transaction(async (tx) => {
          const row = await repo.insertUser(tx, { name: input.name, email: input.email, passwordHash, profile: input.profile });
          await repo.setUserQueues(tx, row.id, input.queueIds);
          await recordAudit(tx, {
            action: "user.created",
            targetType: "user",
            targetId: row.id,
            details: { name: input.name, email: input.email, profile: input.profile, queueIds: input.queueIds },
          });
          return row.id;
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw duplicateEmail();
          throw error;
        });
      const user = await load(id);
      events.publish("user", { action: "create", user });
      return user;
    },

    /**
     * Admins edit anyone. Agents edit only themselves, and only name, email and
     * password: profile and queues may be sent back unchanged, never changed.
     */
    async update(actor: Actor, id: number, input: UpdateInput, currentSessionId?: string | null): Promise<User> {
      const admin = can(actor, "users:manage");
      if (!admin && actor.id !== id) throw new AppError("ERR_NO_PERMISSION");
      const current = await repo.findUserById(db, id);
      if (!current) throw new AppError("ERR_NO_USER_FOUND");
      const currentQueueIds = current.queues.map((q) => q.id);
      const profileChanges = input.profile !== undefined && input.profile !== normaliseProfile(current.profile);
      const queuesChange = input.queueIds !== undefined && !sameIds(input.queueIds, currentQueueIds);
      if (profileChanges && !can(actor, "user-modal:editProfile")) throw new AppError("ERR_NO_PERMISSION");
      if (queuesChange && !can(actor, "user-modal:editQueues")) throw new AppError("ERR_NO_PERMISSION");
      if (input.email) await assertEmailFree(input.email, id);
      if (queuesChange && input.queueIds) await assertQueuesExist(input.queueIds);
      const passwordHash = input.password ? await hashPassword(input.password) : undefined;

      const ended = await db
        .transaction(async (tx) => {
          if (profileChanges && input.profile === "user") {
            const admins = await repo.lockAdminIds(tx);
            if (admins.length === 1 && admins[0] === id) {
              throw new AppError("ERR_LAST_ADMIN");
            }
          }
          await repo.updateUser(tx, id, {
            name: input.name,
            email: input.email,
            profile: profileChanges ? input.profile : undefined,
            passwordHash,
          });
          if (queuesChange && input.queueIds) await repo.setUserQueues(tx, id, input.queueIds);
          const changes = {
            name: input.name !== undefined && input.name !== current.name ? { from: current.name, to: input.name } : undefined,
            email:
              input.email !== undefined && input.email !== current.email ? { from: current.email, to: input.email } : undefined,
            profile: profileChanges ? { from: normaliseProfile(current.profile), to: input.profile } : undefined,
            queueIds: queuesChange ? { from: currentQueueIds, to: input.queueIds } : undefined,
          };
          if (Object.values(changes).some((c) => c !== undefined)) {
            await recordAudit(tx, { action: "user.updated", targetType: "user", targetId: id, details: changes });
          }
          if (passwordHash) {
            await recordAudit(tx, {
              action: "user.passwordChanged",
              targetType: "user",
              targetId: id,
              details: { self: actor.id === id },
            });
          }
          // A new password ends that user's sessions at once (issue 22 §5), but the one making the
          // change on themselves: whoever just typed the new password stays signed in here. A new
          // profile ends nothing: every request and socket reads it fresh, so it applies at once.
          if (!passwordHash) return [];
          return tokens.endSessionsOf(id, {
            except: actor.id === id ? (currentSessionId ?? undefined) : undefined,
            executor: tx,
          });
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw duplicateEmail();
          throw error;
        });

      const user = await load(id);
      events.publish("user", { action: "update", user });
      if (profileChanges || queuesChange) events.userAccessChanged(id);
      // The ended sessions' sockets go too, on every process.
      if (ended.length > 0) events.endSessions(id, ended);
      return user;
    },

    async remove(actor: Actor, id: number): Promise<void> {
      if (!can(actor, "users:manage")) throw new AppError("ERR_NO_PERMISSION");
      const released = await db.transaction(async (tx) => {
        const target = await repo.findUserById(tx, id);
        if (!target) throw new AppError("ERR_NO_USER_FOUND");
        if (isAdmin(target)) {
          const admins = await repo.lockAdminIds(tx);
          if (admins.length <= 1) {
            throw new AppError("ERR_LAST_ADMIN");
          }
        }
        // Their open conversations go back to the queue rather than being left without anyone.
        const released = await releaseUserTickets(tx, id);
        await repo.deleteUser(tx, id);
        await recordAudit(tx, {
          action: "user.deleted",
          targetType: "user",
          targetId: id,
          details: { name: target.name, email: target.email, profile: normaliseProfile(target.profile) },
        });
        return released;
      });
      events.publish("user", { action: "delete", userId: id });
      events.userAccessChanged(id, { deleted: true });
      for (const ticketId of released) await deps.announceTicket?.(ticketId);
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
