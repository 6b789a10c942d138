import type { Db } from "./client.js";

/**
 * Prepared statements of the hot paths, built once per database handle (issue 10 item 3): building
 * a drizzle query afresh costs more Node CPU than running it. Drizzle's statements belong to the
 * handle they were prepared on (on node-postgres the name is prepared per pooled connection, which
 * the driver tracks), so the cache is keyed by the handle and dies with it.
 */
const caches = new WeakMap<Db, Map<string, unknown>>();

export function prepared<T>(db: Db, name: string, build: (db: Db, name: string) => T): T {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let statement = cache.get(name) as T | undefined;
  if (statement === undefined) {
    statement = build(db, name);
    cache.set(name, statement);
  }
  return statement;
}

/** How many statements this handle holds (tests prove the hot paths reuse theirs). */
export function preparedCount(db: Db): number {
  return caches.get(db)?.size ?? 0;
}
