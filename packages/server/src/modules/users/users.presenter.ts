import { normaliseProfile, type User } from "@zapdesk/core";
import type { UserWithQueues } from "./users.repo.js";

export function presentUser(row: UserWithQueues): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    profile: normaliseProfile(row.profile),
    queues: row.queues,
    createdAt: row.createdAt.toISOString(),
  };
}
