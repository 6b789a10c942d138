import { type AuthenticationCreds, DisconnectReason } from "@whiskeysockets/baileys";
import type { ConnectionStatusReason } from "@zapdesk/core";

/**
 * What a socket close means. WhatsApp reports why it ends a session in the close code: some ask
 * for a fresh socket (515 after pairing), some mean the pairing is gone, some cannot be fixed by
 * retrying (another client took the session, the account is banned, the client is outdated).
 */
export type CloseOutcome =
  | { kind: "restart" }
  | { kind: "loggedOut" }
  | { kind: "outdated" }
  | { kind: "terminal"; statusReason: ConnectionStatusReason }
  | { kind: "qrTimeout" }
  | { kind: "dropped" };

const LOGGED_OUT_CODES = new Set<number>([
  DisconnectReason.loggedOut,
  DisconnectReason.forbidden,
  DisconnectReason.multideviceMismatch,
]);
/** 405: WhatsApp no longer accepts the client version we announced. */
export const CLIENT_OUTDATED_CODE = 405;
/** 402 and 406: the number is (temporarily) banned; retrying only makes it worse. */
const BANNED_CODES = new Set([402, 406]);

export function statusCodeOf(error: unknown): number | undefined {
  const output = (error as { output?: { statusCode?: unknown } } | undefined)?.output;
  return typeof output?.statusCode === "number" ? output.statusCode : undefined;
}

/**
 * Whether WhatsApp accepted this device. `creds.me` is not proof: requestPairingCode sets it
 * before the phone confirms. Nor is `registered` while a pairing code is pending: Baileys sets it
 * when it answers the phone's code (companion_finish), before WhatsApp's pair-success, which may
 * never come. pair-success, by QR or by code, leaves the signed device identity in `account`.
 */
export function isPaired(creds: AuthenticationCreds): boolean {
  return !!creds.account || (creds.registered === true && !creds.pairingCode);
}

export function classifyClose(error: unknown, context: { paired: boolean; qrShown: boolean }): CloseOutcome {
  const code = statusCodeOf(error);
  if (code === DisconnectReason.restartRequired) return { kind: "restart" };
  if (code !== undefined && LOGGED_OUT_CODES.has(code)) return { kind: "loggedOut" };
  if (code === CLIENT_OUTDATED_CODE) return { kind: "outdated" };
  if (code === DisconnectReason.connectionReplaced) return { kind: "terminal", statusReason: "REPLACED" };
  if (code !== undefined && BANNED_CODES.has(code)) return { kind: "terminal", statusReason: "BANNED" };
  return context.qrShown && !context.paired ? { kind: "qrTimeout" } : { kind: "dropped" };
}
