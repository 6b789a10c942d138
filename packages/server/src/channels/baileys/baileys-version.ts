import { DEFAULT_CONNECTION_CONFIG, fetchLatestWaWebVersion, type WAVersion } from "@whiskeysockets/baileys";

/** The WhatsApp Web version bundled with the installed Baileys: never announce anything older. */
export const BUNDLED_VERSION: WAVersion = DEFAULT_CONNECTION_CONFIG.version;

/** Fetches the version WhatsApp Web currently serves; undefined when it cannot be known quickly. */
export type VersionFetcher = () => Promise<WAVersion | undefined>;

const FETCH_TIMEOUT_MS = 3_000;
/** A fetched version is good for hours; a failed fetch is not retried on every reconnect. */
const FRESH_MS = 6 * 60 * 60 * 1000;
const FAILED_MS = 10 * 60 * 1000;

export const fetchWaWebVersion: VersionFetcher = async () => {
  const result = await fetchLatestWaWebVersion({ signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) }).catch(() => undefined);
  return result?.isLatest ? result.version : undefined;
};

export function compareVersions(a: WAVersion, b: WAVersion): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

export const newest = (a: WAVersion, b: WAVersion) => (compareVersions(a, b) >= 0 ? a : b);

export interface VersionSource {
  /** The version to connect with: the fetched one (cached), never older than the bundled one. */
  current(): Promise<WAVersion>;
  /** WhatsApp refused `used` as outdated (405): a newer one after a fresh fetch, or undefined. */
  newerThan(used: WAVersion): Promise<WAVersion | undefined>;
}

export function createVersionSource(fetch: VersionFetcher, now: () => number = Date.now): VersionSource {
  let cached: { version: WAVersion | undefined; at: number } | undefined;
  const load = async (force: boolean) => {
    const age = cached ? now() - cached.at : Number.POSITIVE_INFINITY;
    if (force || !cached || age > (cached.version ? FRESH_MS : FAILED_MS)) {
      cached = { version: await fetch().catch(() => undefined), at: now() };
    }
    return cached.version ? newest(cached.version, BUNDLED_VERSION) : BUNDLED_VERSION;
  };
  return {
    current: () => load(false),
    async newerThan(used) {
      const fresh = await load(true);
      return compareVersions(fresh, used) > 0 ? fresh : undefined;
    },
  };
}
