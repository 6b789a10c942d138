import type { FastifyBaseLogger } from "fastify";
import type { LeaseRows } from "./channel-store.js";

/**
 * Scaled out, a connection whose owner dies is taken over within TTL + renewal interval (8 s): its
 * lease runs out at most 6 s after the owner's last renewal, and every live process looks for
 * such orphans every 2 s. A lease survives two missed renewals: a slow query or a pause does not lose it.
 */
export const LEASE_TIMING = { ttlMs: 6_000, renewMs: 2_000 } as const;

export interface LeaseOptions {
  /** This process's identity, unique across the fleet (e.g. hostname + pid + random). */
  owner: string;
  /** How long a lease lives without renewal: a dead owner's connections are taken over after this. */
  ttlMs: number;
  /** How often leases are renewed and orphans looked for; default a third of the TTL. */
  renewMs?: number;
}

export interface LeaseHooks {
  /** The connections this process currently holds. */
  owned(): number[];
  /** Another process took the connection (this one stalled past the TTL): stop it here. */
  lost(whatsappId: number): Promise<void>;
  /** An orphan (no owner, or an expired one) that this process just may take. */
  takeOver(whatsappId: number): Promise<void>;
}

export interface SessionLease {
  /** Take the lease if free, expired or already ours; `force` takes it from a live owner too. */
  acquire(whatsappId: number, force?: boolean): Promise<boolean>;
  release(whatsappId: number): Promise<void>;
  /** Whether this process holds the connection's lease right now. */
  holds(whatsappId: number): Promise<boolean>;
  /** Renew and take over periodically until stop(). */
  run(): void;
  stop(): void;
  /** One renewal and takeover round (the timer's work; tests call it directly). */
  tick(): Promise<void>;
}

/**
 * Each connection is owned by exactly one process (design §2): the row's lease_owner, valid
 * until lease_expires_at. Times come from the database's clock so that hosts need not agree.
 */
export function createSessionLease(
  rows: LeaseRows,
  options: LeaseOptions,
  logger: FastifyBaseLogger,
  hooks: LeaseHooks,
): SessionLease {
  const { owner, ttlMs } = options;
  let timer: NodeJS.Timeout | undefined;
  let running = false;

  async function tick() {
    const still = new Set(await rows.renew(owner, ttlMs));
    for (const id of hooks.owned()) {
      if (!still.has(id)) {
        logger.warn({ whatsappId: id }, "connection lease lost to another process");
        await hooks.lost(id);
      }
    }
    for (const id of await rows.orphans()) {
      await hooks.takeOver(id).catch((error) => logger.error({ err: error, whatsappId: id }, "connection takeover failed"));
    }
  }

  return {
    acquire: (id, force = false) => rows.acquire(id, owner, ttlMs, force),
    async release(id) {
      await rows
        .release(id, owner)
        .catch((error) => logger.warn({ err: error, whatsappId: id }, "could not release connection lease"));
    },
    holds: (id) => rows.holds(id, owner),
    run() {
      if (timer) return;
      const every = options.renewMs ?? Math.max(1_000, Math.floor(ttlMs / 3));
      timer = setInterval(() => {
        if (running) return;
        running = true;
        tick()
          .catch((error) => logger.error({ err: error }, "connection lease renewal failed"))
          .finally(() => {
            running = false;
          });
      }, every);
      timer.unref?.();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
    tick,
  };
}
