import { createHmac, timingSafeEqual } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { AppError } from "../lib/app-error.js";
import type { Clock } from "../lib/clock.js";

/** How long a link works: a bot's flow may read the file some time after the customer sent it. */
export const MEDIA_LINK_TTL_SECONDS = 24 * 60 * 60;

/** The route the links point at, under the API prefix (modules/messages/public-media.routes.ts). */
export const PUBLIC_MEDIA_PATH = "/public/media";

const TOKEN = /^(\d{1,15})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export interface MediaLinks {
  /** Whether links can be given (PUBLIC_URL is set). */
  enabled: boolean;
  /** An absolute link to the message's media, or null when PUBLIC_URL is not set (warned once). */
  urlFor(messageId: number): string | null;
  /** The message a token names; ERR_MEDIA_LINK_INVALID or ERR_MEDIA_LINK_EXPIRED otherwise. */
  verify(token: string): number;
}

/**
 * Signed, expiring links to one stored message's media, for those who fetch it without a session
 * (a queue's bot). The token is `<messageId>.<expiry, unix seconds>.<HMAC-SHA256 of both>`, keyed
 * with a key derived from the access-token secret (JWT_SECRET), so every process of a scaled-out
 * install signs and checks alike, and the key is never the access tokens' own. A new JWT_SECRET
 * voids the links given before. The signature is checked before anything is read: a forged link
 * costs one HMAC and reaches neither the database nor the storage.
 */
export function createMediaLinks(options: {
  secret: string;
  publicUrl: string | undefined;
  clock: Clock;
  logger: FastifyBaseLogger;
  ttlSeconds?: number;
}): MediaLinks {
  const key = createHmac("sha256", options.secret).update("zapdesk-public-media-link").digest();
  const ttl = options.ttlSeconds ?? MEDIA_LINK_TTL_SECONDS;
  const base = options.publicUrl?.replace(/\/+$/, "");
  const sign = (messageId: number, expires: number) =>
    createHmac("sha256", key).update(`media:${messageId}:${expires}`).digest("base64url");
  let warned = false;

  return {
    enabled: !!base,

    urlFor(messageId) {
      if (!base) {
        if (!warned) {
          warned = true;
          options.logger.warn(
            "a bot cannot receive the customer's files: set PUBLIC_URL (the address people and bots reach Zapdesk at) so that Zapdesk can give it a link; until then it gets the message's text only",
          );
        }
        return null;
      }
      const expires = Math.floor(options.clock.now().getTime() / 1000) + ttl;
      const token = `${messageId}.${expires}.${sign(messageId, expires)}`;
      return `${base}/api${PUBLIC_MEDIA_PATH}/${token}`;
    },

    verify(token) {
      const match = TOKEN.exec(token);
      if (!match) throw new AppError("ERR_MEDIA_LINK_INVALID");
      const messageId = Number(match[1]);
      const expires = Number(match[2]);
      // Compared as text: decoding first would let the unused bits of the last character vary.
      const given = Buffer.from(match[3]);
      const expected = Buffer.from(sign(messageId, expires));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError("ERR_MEDIA_LINK_INVALID");
      if (expires * 1000 <= options.clock.now().getTime()) throw new AppError("ERR_MEDIA_LINK_EXPIRED");
      return messageId;
    },
  };
}
