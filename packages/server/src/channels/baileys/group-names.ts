import type { GroupMetadata } from "@whiskeysockets/baileys";
import type { BaileysLogger } from "./baileys-logger.js";

export interface GroupNames {
  /** The group's subject: cached, fetched at most once per TTL, undefined when slow or failing. */
  name(jid: string): Promise<string | undefined>;
  /** Cached metadata for Baileys' own sends to groups (saves a query per message). */
  metadata(jid: string): GroupMetadata | undefined;
  /** groups.upsert / groups.update carry the subject for free. */
  remember(update: Partial<GroupMetadata>): void;
}

interface Cached {
  metadata?: GroupMetadata;
  subject?: string;
  at: number;
}

const TTL_MS = 60 * 60 * 1000;
const FAILURE_TTL_MS = 5 * 60 * 1000;
/** A subject is a nicety: an inbound message never waits longer than this for it. */
const FETCH_TIMEOUT_MS = 3_000;

export function createGroupNames(
  socket: () => { groupMetadata(jid: string): Promise<GroupMetadata> } | undefined,
  logger: BaileysLogger,
): GroupNames {
  const cache = new Map<string, Cached>();
  const inflight = new Map<string, Promise<string | undefined>>();

  async function fetch(jid: string): Promise<string | undefined> {
    const s = socket();
    if (!s) return undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      const metadata = await Promise.race([
        s.groupMetadata(jid),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("group metadata timeout")), FETCH_TIMEOUT_MS);
        }),
      ]);
      cache.set(jid, { metadata, subject: metadata.subject, at: Date.now() });
      return metadata.subject;
    } catch (error) {
      logger.warn({ err: error, jid }, "group metadata unavailable");
      // Remember the failure for a while so a busy group does not query on every message.
      cache.set(jid, { ...cache.get(jid), at: Date.now() - (TTL_MS - FAILURE_TTL_MS) });
      return cache.get(jid)?.subject;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async name(jid) {
      const hit = cache.get(jid);
      if (hit && Date.now() - hit.at < TTL_MS) return hit.subject;
      let pending = inflight.get(jid);
      if (!pending) {
        pending = fetch(jid).finally(() => inflight.delete(jid));
        inflight.set(jid, pending);
      }
      return pending;
    },
    metadata: (jid) => cache.get(jid)?.metadata,
    remember(update) {
      if (!update.id) return;
      const hit = cache.get(update.id);
      const metadata = hit?.metadata
        ? { ...hit.metadata, ...update }
        : update.participants
          ? (update as GroupMetadata)
          : undefined;
      cache.set(update.id, {
        metadata,
        subject: update.subject ?? hit?.subject,
        at: update.subject ? Date.now() : (hit?.at ?? 0),
      });
    },
  };
}
