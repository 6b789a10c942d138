import http from "node:http";
import https from "node:https";
import webpush from "web-push";
import { publicOnlyLookup } from "./endpoint-guard.js";
import type { VapidKeys } from "./vapid.js";

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** What the push service answered: a status, or a network failure (status 0). */
export interface SendResult {
  status: number;
}

export type PushSend = (
  target: PushTarget,
  payload: string,
  options: { topic: string; ttlSeconds: number },
) => Promise<SendResult>;

/**
 * The real thing: web-push encrypts the payload (aes128gcm, RFC 8291) and signs the VAPID JWT;
 * the POST itself is ours, so an https endpoint connects only to public addresses (the lookup
 * checks every resolved address) and tests may point an http://127.0.0.1 endpoint at a fake.
 */
export function createPushSender(vapid: VapidKeys, options: { allowInsecure?: boolean; timeoutMs?: number } = {}): PushSend {
  const agent = new https.Agent({ lookup: publicOnlyLookup, keepAlive: true, maxSockets: 16 });
  const timeoutMs = options.timeoutMs ?? 10_000;
  return (target, payload, { topic, ttlSeconds }) => {
    const details = webpush.generateRequestDetails(
      { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
      payload,
      {
        vapidDetails: vapid,
        TTL: ttlSeconds,
        urgency: "high",
        topic,
        contentEncoding: "aes128gcm",
      },
    );
    const url = new URL(details.endpoint);
    const insecure = url.protocol === "http:";
    if (insecure && !options.allowInsecure) return Promise.resolve({ status: 0 });
    return new Promise<SendResult>((resolve) => {
      const request = (insecure ? http : https).request(
        url,
        {
          method: "POST",
          headers: details.headers as http.OutgoingHttpHeaders,
          timeout: timeoutMs,
          ...(insecure ? {} : { agent }),
        },
        (response) => {
          response.resume();
          response.on("end", () => resolve({ status: response.statusCode ?? 0 }));
          response.on("error", () => resolve({ status: 0 }));
        },
      );
      request.on("timeout", () => request.destroy(new Error("push timeout")));
      request.on("error", () => resolve({ status: 0 }));
      request.end(details.body as Buffer);
    });
  };
}
