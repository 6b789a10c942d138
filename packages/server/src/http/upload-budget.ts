import type { FastifyInstance } from "fastify";
import { AppError } from "../lib/app-error.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route streams its files to storage as they arrive (none is held in memory): it takes no room of the budget. */
    streamsUploads?: boolean;
  }
}

/** Bytes of multipart bodies a process reads at once (files are held in memory until stored). */
export const UPLOAD_BUDGET_BYTES = 64 * 1024 * 1024;
/** How long an upload waits for room before it is answered 503 with Retry-After. */
export const UPLOAD_WAIT_MS = 30_000;

export interface UploadBudget {
  /** Reserve `bytes`; resolves with the release once they fit, rejects after the wait. */
  acquire(bytes: number): { granted: Promise<() => void>; cancel(): void };
  readonly inUse: number;
  readonly waiting: number;
}

/**
 * A first-come, first-served allowance of bytes. An upload is held in memory whole until every
 * check has passed and it is stored; without a cap, sixteen concurrent sends of large files took
 * a process from 0.7 to 2 GB. A waiting upload costs nothing: its body stays unread in the socket.
 */
export function createUploadBudget(options: { maxBytes?: number; maxWaitMs?: number } = {}): UploadBudget {
  const maxBytes = options.maxBytes ?? UPLOAD_BUDGET_BYTES;
  const maxWaitMs = options.maxWaitMs ?? UPLOAD_WAIT_MS;
  let inUse = 0;
  const queue: { bytes: number; grant(): void }[] = [];

  function releaser(bytes: number) {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      inUse -= bytes;
      drain();
    };
  }

  function drain() {
    while (queue.length && inUse + queue[0].bytes <= maxBytes) {
      const next = queue.shift() as (typeof queue)[number];
      inUse += next.bytes;
      next.grant();
    }
  }

  return {
    get inUse() {
      return inUse;
    },
    get waiting() {
      return queue.length;
    },
    acquire(requested) {
      // One upload larger than the whole budget runs alone rather than never.
      const bytes = Math.min(Math.max(1, requested), maxBytes);
      if (!queue.length && inUse + bytes <= maxBytes) {
        inUse += bytes;
        return { granted: Promise.resolve(releaser(bytes)), cancel: () => {} };
      }
      let entry: (typeof queue)[number] | undefined;
      let timer: NodeJS.Timeout | undefined;
      const leave = () => {
        clearTimeout(timer);
        const at = entry ? queue.indexOf(entry) : -1;
        if (at >= 0) queue.splice(at, 1);
        // Whoever waited behind this upload may fit now.
        drain();
      };
      const granted = new Promise<() => void>((resolve, reject) => {
        entry = {
          bytes,
          grant: () => {
            clearTimeout(timer);
            resolve(releaser(bytes));
          },
        };
        queue.push(entry);
        timer = setTimeout(() => {
          leave();
          reject(
            new AppError("ERR_SERVICE_UNAVAILABLE", {
              message: "The server is receiving other uploads; try again in a moment.",
              retryAfterSeconds: 5,
            }),
          );
        }, maxWaitMs);
      });
      return { granted, cancel: leave };
    },
  };
}

/**
 * Every multipart request (but those of a route that streams its files, `config.streamsUploads`)
 * reserves its declared length (or the most a request may carry) before
 * its handler reads a byte, and gives it back when its answer is sent or its connection closes.
 * Routes check access before they read the body, so this only bounds what is then read.
 */
export function registerUploadBudget(app: FastifyInstance, budget: UploadBudget, perRequestMax: number): void {
  const releases = new WeakMap<object, () => void>();
  app.addHook("onResponse", async (request) => releases.get(request)?.());
  app.addHook("preHandler", async (request, reply) => {
    if (!request.isMultipart() || request.routeOptions.config.streamsUploads) return;
    const declared = Number(request.headers["content-length"]);
    const bytes = Number.isFinite(declared) && declared > 0 ? Math.min(declared, perRequestMax) : perRequestMax;
    const { granted, cancel } = budget.acquire(bytes);
    // A client that goes away while waiting gives its place up.
    reply.raw.once("close", cancel);
    const release = await granted;
    reply.raw.off("close", cancel);
    releases.set(request, release);
    if (reply.raw.writableEnded || reply.raw.destroyed) release();
    else reply.raw.once("close", release);
  });
}
