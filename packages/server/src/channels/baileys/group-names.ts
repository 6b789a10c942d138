import type { GroupMetadata } from "@whiskeysockets/baileys";
import type { BaileysLogger } from "./baileys-logger.js";

export interface GroupNames {
  /** The group's subject: cached, fetched at most once per hour, undefined when slow or failing. */
  name(jid: string): Promise<string | undefined>;
  /**
   * Metadata for Baileys' own sends to the group (its member list decides who can decrypt).
   * Served from the cache for a few minutes at most, then fetched again.
   */
  metadata(jid: string): Promise<GroupMetadata | undefined>;
  /** groups.upsert carries full metadata for free. */
  remember(metadata: GroupMetadata): void;
  /** groups.update / group-participants.update: what we hold is stale; fetch it again. */
  changed(update: { id?: string; subject?: string }): void;
}

interface Cached {
  metadata?: GroupMetadata;
  metadataAt: number;
  subject?: string;
  subjectAt: number;
}

const SUBJECT_TTL_MS = 60 * 60 * 1000;
/** Baileys' README suggests about five minutes for cachedGroupMetadata; events refresh it sooner. */
export const METADATA_TTL_MS = 5 * 60 * 1000;
const FAILURE_TTL_MS = 5 * 60 * 1000;
/** A subject is a nicety: an inbound message never waits longer than this for it. */
const FETCH_TIMEOUT_MS = 3_000;

export function createGroupNames(
  socket: () => { groupMetadata(jid: string): Promise<GroupMetadata> } | undefined,
  logger: BaileysLogger,
  now: () => number = () => Date.now(),
): GroupNames {
  const cache = new Map<string, Cached>();
  const inflight = new Map<string, Promise<GroupMetadata | undefined>>();
  const entry = (jid: string): Cached => cache.get(jid) ?? { metadataAt: 0, subjectAt: 0 };

  async function query(jid: string): Promise<GroupMetadata | undefined> {
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
      cache.set(jid, { metadata, metadataAt: now(), subject: metadata.subject, subjectAt: now() });
      return metadata;
    } catch (error) {
      logger.warn({ err: error, jid }, "group metadata unavailable");
      // Remember the failure for a while so a busy group does not query on every message.
      const hit = entry(jid);
      cache.set(jid, { ...hit, subjectAt: now() - (SUBJECT_TTL_MS - FAILURE_TTL_MS) });
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  function fetch(jid: string): Promise<GroupMetadata | undefined> {
    let pending = inflight.get(jid);
    if (!pending) {
      pending = query(jid).finally(() => inflight.delete(jid));
      inflight.set(jid, pending);
    }
    return pending;
  }

  return {
    async name(jid) {
      const hit = cache.get(jid);
      if (hit && now() - hit.subjectAt < SUBJECT_TTL_MS) return hit.subject;
      await fetch(jid);
      return cache.get(jid)?.subject;
    },
    async metadata(jid) {
      const hit = cache.get(jid);
      if (hit?.metadata && now() - hit.metadataAt < METADATA_TTL_MS) return hit.metadata;
      return fetch(jid);
    },
    remember(metadata) {
      if (!metadata.id) return;
      cache.set(metadata.id, { metadata, metadataAt: now(), subject: metadata.subject, subjectAt: now() });
    },
    changed(update) {
      if (!update.id) return;
      const hit = entry(update.id);
      // The stale member list is dropped at once: until the refresh lands, Baileys asks WhatsApp itself.
      cache.set(update.id, {
        subject: update.subject ?? hit.subject,
        subjectAt: update.subject ? now() : hit.subjectAt,
        metadataAt: 0,
      });
      void fetch(update.id);
    },
  };
}
