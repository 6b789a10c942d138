import { isIP, type LookupFunction } from "node:net";
import { guardedLookup, isBlockedAddress } from "../outbound-webhooks/target-guard.js";

/**
 * Where a push subscription's endpoint may point. The browser hands us the URL of its push
 * service (FCM, Mozilla, Apple, WNS): always a public https host. A signed-in user could post any
 * URL, so the outbound webhooks' rules apply (loopback, private, link-local/cloud metadata, CGNAT,
 * reserved ranges refused): when the subscription is saved (literal addresses and local names)
 * and again when the socket connects (every address the name resolves to, so DNS rebinding
 * cannot reach them either).
 */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|localdomain|home|lan)$/i;

/** Whether an endpoint may be stored: https to a public host; `allowInsecure` (tests) also lets http://127.0.0.1 through. */
export function isAllowedEndpoint(raw: string, allowInsecure = false): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (allowInsecure && url.protocol === "http:" && url.hostname === "127.0.0.1") return true;
  if (url.protocol !== "https:" || url.username || url.password) return false;
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(host)) return !isBlockedAddress(host);
  return host.includes(".") && !LOCAL_NAME.test(host);
}

/** The delivery socket's lookup: every address the name resolves to must be public. */
export const publicOnlyLookup: LookupFunction = guardedLookup(false);
