import type { ConnectionStatusReason } from "@zapdesk/core";

/**
 * Reasons a QR connection stopped whose only fix is to pair again (a new QR code or pairing
 * code): "try again" with what is left of the attempt would start the same dead end.
 */
export const PAIR_AGAIN_REASONS: ReadonlySet<ConnectionStatusReason> = new Set<ConnectionStatusReason>([
  "QR_TIMEOUT",
  "PAIRING_STALLED",
  "PAIRING_FAILED",
  "PAIRING_CODE_REFUSED",
  "LOGGED_OUT",
]);
