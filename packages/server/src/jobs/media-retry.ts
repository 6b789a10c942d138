import { MEDIA_STATE } from "@zapdesk/core";
import { and, asc, eq, gt, isNotNull, isNull, lt, ne, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { ChannelSession } from "../channels/channel.js";
import type { Db } from "../db/client.js";
import { messages } from "../db/schema.js";
import { type MediaStorage, MediaTooLargeError } from "../media/storage.js";
import { storeStream } from "../media/store-stream.js";

const BATCH = 10;
const RETRY_AFTER_MS = 2 * 60 * 1000;
const GIVE_UP_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Media that could not be downloaded when the message arrived is retried from the
 * provider data kept with the message, every few minutes for a week.
 */
export function createMediaRetry(deps: {
  db: Db;
  storage: MediaStorage;
  /** Largest media downloaded, in bytes (WHATSAPP_MEDIA_MAX_MB). */
  mediaMaxBytes: number;
  session(whatsappId: number): ChannelSession | undefined;
  logger: FastifyBaseLogger;
  onRecovered(messageId: number): Promise<void>;
  intervalMs?: number;
}) {
  const { db, logger } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function tick(): Promise<number> {
    const now = Date.now();
    const due = await db
      .select({
        id: messages.id,
        whatsappId: messages.whatsappId,
        raw: messages.raw,
        name: messages.mediaName,
        mime: messages.mediaMime,
      })
      .from(messages)
      .where(
        and(
          isNotNull(messages.mediaError),
          // Too large stays too large; a download that was in flight when the process died is retried.
          ne(messages.mediaError, MEDIA_STATE.tooLarge),
          isNull(messages.mediaPath),
          isNotNull(messages.raw),
          isNotNull(messages.whatsappId),
          gt(messages.createdAt, new Date(now - GIVE_UP_AFTER_MS)),
          lt(messages.updatedAt, new Date(now - RETRY_AFTER_MS)),
        ),
      )
      .orderBy(asc(messages.updatedAt))
      .limit(BATCH);
    let recovered = 0;
    for (const row of due) {
      const session = row.whatsappId === null ? undefined : deps.session(row.whatsappId);
      if (!session) continue;
      try {
        const media = await storeStream(deps.storage, await session.downloadMedia(row.raw), {
          filename: row.name ?? undefined,
          claimedMime: row.mime ?? undefined,
          maxBytes: deps.mediaMaxBytes,
        });
        await db
          .update(messages)
          .set({ mediaPath: media.path, mediaName: media.name, mediaMime: media.mime, mediaError: null, updatedAt: new Date() })
          .where(eq(messages.id, row.id));
        recovered++;
        await deps.onRecovered(row.id);
      } catch (error) {
        // Too large stays too large: marked so, and never downloaded again.
        const tooLarge = error instanceof MediaTooLargeError;
        if (!tooLarge) logger.debug({ err: error, messageId: row.id }, "media download retry failed");
        await db
          .update(messages)
          .set(tooLarge ? { mediaError: MEDIA_STATE.tooLarge, updatedAt: sql`now()` } : { updatedAt: sql`now()` })
          .where(eq(messages.id, row.id));
        if (tooLarge) await deps.onRecovered(row.id);
      }
    }
    return recovered;
  }

  return {
    /** One round (the timer's work; tests call it). */
    runOnce: () => tick(),
    start() {
      timer = setInterval(() => {
        running ??= tick()
          .then(() => undefined)
          .catch((error) => logger.warn({ err: error }, "media retry round failed"))
          .finally(() => {
            running = undefined;
          });
      }, deps.intervalMs ?? 60_000);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}

export type MediaRetry = ReturnType<typeof createMediaRetry>;
