import {
  type ConnectionRestriction,
  NEW_CHAT_CAP_STATUSES,
  type NewChatCapStatus,
  newChatBlock,
  restrictionNeedsAttention,
} from "@zapdesk/core";
import type { RestrictionReport } from "../../channels/channel.js";
import type { Db } from "../../db/client.js";
import { findConnection } from "./connections.repo.js";

const isCapStatus = (value: unknown): value is NewChatCapStatus =>
  typeof value === "string" && (NEW_CHAT_CAP_STATUSES as readonly string[]).includes(value);
const iso = (date: Date | undefined) => (date && Number.isFinite(date.getTime()) ? date.toISOString() : null);

/** What is known after a report: each part replaces its own, the other stays. */
export function mergeRestriction(
  current: ConnectionRestriction | null,
  report: RestrictionReport,
  now: Date,
): ConnectionRestriction | null {
  let timeLock = current?.timeLock ?? null;
  let newChatCap = current?.newChatCap ?? null;
  if (report.timeLock) {
    const lock = report.timeLock;
    timeLock = lock.active
      ? {
          enforcementType: lock.enforcementType || "DEFAULT",
          endsAt: iso(lock.endsAt),
          since: timeLock?.since ?? now.toISOString(),
        }
      : null;
  }
  if (report.newChatCap) {
    const cap = report.newChatCap;
    newChatCap = {
      used: cap.used ?? newChatCap?.used ?? null,
      total: cap.total ?? newChatCap?.total ?? null,
      status: isCapStatus(cap.status) ? cap.status : (newChatCap?.status ?? "NONE"),
      cycleEndsAt: iso(cap.cycleEndsAt) ?? newChatCap?.cycleEndsAt ?? null,
      updatedAt: now.toISOString(),
    };
  }
  return timeLock || newChatCap ? { timeLock, newChatCap } : null;
}

/** What an admin is told about, as a set of facts: a new one since the last state is worth a notification. */
function alerts(restriction: ConnectionRestriction | null, now: Date): Set<string> {
  const facts = new Set<string>();
  if (!restriction || !restrictionNeedsAttention(restriction, now)) return facts;
  if (newChatBlock({ timeLock: restriction.timeLock, newChatCap: null }, now)) facts.add("timeLock");
  const cap = restriction.newChatCap;
  if (cap && cap.status !== "NONE" && restrictionNeedsAttention({ timeLock: null, newChatCap: cap }, now)) {
    facts.add(`cap:${cap.status}`);
  }
  return facts;
}

/** How a report changed the connection: something new to tell admins, and whether chats may be opened again. */
export function restrictionChange(before: ConnectionRestriction | null, after: ConnectionRestriction | null, now: Date) {
  const was = alerts(before, now);
  const is = alerts(after, now);
  return {
    worse: [...is].some((fact) => !was.has(fact)),
    lifted: newChatBlock(before, now) !== null && newChatBlock(after, now) === null,
  };
}

/** The connection's restrictions after a report, and what changed for admins and held messages. */
export async function restrictionAfter(db: Db, id: number, report: RestrictionReport) {
  const before = (await findConnection(db, id))?.restriction ?? null;
  const now = new Date();
  const after = mergeRestriction(before, report, now);
  return { after, change: restrictionChange(before, after, now) };
}
