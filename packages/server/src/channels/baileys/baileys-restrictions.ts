import { type BaileysEventEmitter, type NewChatMessageCapInfo, proto, type WASocket } from "@whiskeysockets/baileys";
import type { ChannelHandlers, RestrictionReport } from "../channel.js";
import type { BaileysLogger } from "./baileys-logger.js";

/** The socket's restriction queries (absent on test fakes that do not model them). */
export type RestrictionQueries = Partial<Pick<WASocket, "fetchAccountReachoutTimelock" | "fetchNewChatMessageCap">>;

/** A 463 NACK asks WhatsApp for the time-lock at most this often (each NACK of a burst would otherwise). */
const NACK_FETCH_GAP_MS = 60_000;

/** WhatsApp's timestamps come as decimal strings, in seconds (milliseconds when that large). */
function timestampOf(value: string | number | undefined): Date | undefined {
  const n = Number(value);
  if (!value || !Number.isFinite(n) || n <= 0) return undefined;
  return new Date(n > 1e12 ? n : n * 1000);
}

/** A count as WhatsApp's JSON gives it (a number, or a decimal string). */
function countOf(value: unknown): number | undefined {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) && n >= 0 ? n : undefined;
}

export function capReport(info: NewChatMessageCapInfo): RestrictionReport {
  return {
    newChatCap: {
      used: countOf(info.used_quota),
      total: countOf(info.total_quota),
      status: info.capping_status,
      cycleEndsAt: timestampOf(info.cycle_end_timestamp),
    },
  };
}

/**
 * WhatsApp's restrictions of the number, as Baileys rc14 surfaces them:
 * - `connection.update.reachoutTimeLock` — from a `<notification type="mex">` whose `<update
 *   op_name="NotificationUserReachoutTimelockUpdate">` carries `xwa2_notify_account_reachout_timelock`
 *   (`is_active`, `time_enforcement_ends` in seconds, `enforcement_type`), and from the answer to
 *   `fetchAccountReachoutTimelock()`;
 * - `message-capping.update` — from the same kind of notification, op `MessageCappingInfoNotification`
 *   (`xwa2_notify_new_chat_messages_capping_info_update`: used/total quota, capping status, cycle).
 * rc14 never asks on its own: on a 463 NACK its handleBadAck takes the tctoken branch (the
 * time-lock fetch after it is unreachable, both codes being "463"). So the adapter asks when the
 * connection opens (a restriction set while Zapdesk was away) and after a 463 NACK.
 */
export function watchRestrictions(input: {
  ev: BaileysEventEmitter;
  socket: RestrictionQueries;
  handlers: ChannelHandlers;
  logger: BaileysLogger;
  /** Whether this socket is still the session's current one. */
  mine(): boolean;
}) {
  const { ev, socket, handlers, logger, mine } = input;
  let lastNackFetch = 0;
  const report = (restriction: RestrictionReport) => {
    if (mine()) handlers.onRestriction?.(restriction);
  };
  const fetchLock = () => {
    // Baileys emits the answer as a connection.update, handled below.
    socket.fetchAccountReachoutTimelock?.().catch((error) => logger.debug({ err: error }, "reach-out time-lock query failed"));
  };
  const fetchCap = () => {
    socket
      .fetchNewChatMessageCap?.()
      .then((info) => info && report(capReport(info as NewChatMessageCapInfo)))
      .catch((error) => logger.debug({ err: error }, "new-chat cap query failed"));
  };

  ev.on("connection.update", (update) => {
    if (!mine()) return;
    const lock = update.reachoutTimeLock;
    if (lock) {
      report({
        timeLock: { active: !!lock.isActive, endsAt: lock.timeEnforcementEnds, enforcementType: lock.enforcementType },
      });
    }
    if (update.connection === "open") {
      fetchLock();
      fetchCap();
    }
  });
  ev.on("message-capping.update", (info) => report(capReport(info)));
  ev.on("messages.update", (updates) => {
    if (!mine() || Date.now() - lastNackFetch < NACK_FETCH_GAP_MS) return;
    const restricted = updates.some(
      ({ update }) => update.status === proto.WebMessageInfo.Status.ERROR && update.messageStubParameters?.[0] === "463",
    );
    if (!restricted) return;
    lastNackFetch = Date.now();
    fetchLock();
  });
}
