import type { InboundCall } from "../channel.js";

/** One event of the `calls` field (Calling API): a call ringing (connect) or ended (terminate). */
export interface CloudCall {
  id?: string;
  from?: string;
  to?: string;
  event?: string;
  timestamp?: string;
  direction?: string;
  /** terminate: COMPLETED (answered) or FAILED (not answered). */
  status?: string;
  duration?: number;
}

const atOf = (timestamp: string | undefined) => {
  const seconds = Number(timestamp);
  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date();
};

/**
 * A customer's call as the pipeline stores it (a line in the ticket, like a QR call): `connect`
 * is the call ringing; `terminate` its end, answered (COMPLETED, with a duration) or missed.
 * Calls the business placed are not a customer writing: undefined.
 */
export function translateCall(call: CloudCall): InboundCall | undefined {
  if (typeof call?.id !== "string" || typeof call.from !== "string") return undefined;
  if (call.direction === "BUSINESS_INITIATED") return undefined;
  if (call.event !== "connect" && call.event !== "terminate") return undefined;
  const from = call.from.replace(/\D/g, "");
  if (!from) return undefined;
  const inbound: InboundCall = { callId: call.id, from, isGroup: false, isVideo: false, timestamp: atOf(call.timestamp) };
  if (call.event === "terminate") {
    const answered = call.status === "COMPLETED";
    const seconds = Number(call.duration);
    inbound.ended = { answered, ...(answered && Number.isFinite(seconds) ? { durationSeconds: seconds } : {}) };
  }
  return inbound;
}
