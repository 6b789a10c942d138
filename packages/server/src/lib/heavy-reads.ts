import { isSearchTooShort } from "@zapdesk/core";
import type { FastifyRequest } from "fastify";
import { AppError } from "./app-error.js";

/**
 * Issue 19: searches and dashboard reads are the requests that can scan a whole history. Each
 * runs on the database's heavy-read pool (its own few connections, each with a statement_timeout:
 * client.ts), and at most one per user is in flight:
 * - the next ones wait their turn, in order (the dashboard's three reads load one after another);
 * - a waiting request whose client has gone (a search box that moved on to a longer term) is
 *   dropped without running;
 * - beyond MAX_WAITING waiting requests, a new one answers 429 ERR_HEAVY_READ_BUSY at once.
 * So one user never holds more than one heavy query, and typing in a search box never sees a 429.
 */
export interface HeavyReadGate {
  run<T>(userId: number, work: () => Promise<T>, gone?: () => boolean): Promise<T>;
  /** Users with a heavy read running now. */
  running(): number;
}

export const MAX_WAITING = 4;

export function createHeavyReadGate(): HeavyReadGate {
  /** Per user: the tail of its chain of heavy reads, and how many wait in it. */
  const users = new Map<number, { tail: Promise<unknown>; queued: number }>();

  return {
    run(userId, work, gone = () => false) {
      const user = users.get(userId) ?? { tail: Promise.resolve(), queued: 0 };
      if (user.queued > MAX_WAITING) return Promise.reject(new AppError("ERR_HEAVY_READ_BUSY", { retryAfterSeconds: 1 }));
      user.queued += 1;
      users.set(userId, user);
      const turn = async () => {
        if (gone()) throw new AppError("ERR_HEAVY_READ_BUSY", { retryAfterSeconds: 1 });
        return work();
      };
      const result = user.tail.then(turn, turn);
      const settled = result.then(
        () => {},
        () => {},
      );
      user.tail = settled;
      void settled.then(() => {
        user.queued -= 1;
        if (user.queued === 0 && users.get(userId) === user) users.delete(userId);
      });
      return result;
    },
    running: () => users.size,
  };
}

/** For `run`: the client closed the connection while its request waited (a search box that moved on). */
export function clientGone(request: FastifyRequest): () => boolean {
  return () => request.raw.destroyed || request.raw.socket?.destroyed === true;
}

/** The search term of a heavy list: empty (no search) or at least SEARCH_MIN_LENGTH characters. */
export function checkSearchTerm(term: string): void {
  if (isSearchTooShort(term)) throw new AppError("ERR_SEARCH_TOO_SHORT");
}
