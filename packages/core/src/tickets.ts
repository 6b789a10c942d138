import type { TicketStatus } from "./constants.js";

export type TicketTransition = "accept" | "return" | "resolve" | "reopen" | "transfer";

export interface TicketState {
  status: TicketStatus;
  userId: number | null;
  queueId: number | null;
}

export interface TicketChange {
  status?: TicketStatus;
  userId?: number | null;
  queueId?: number | null;
}

export type TransitionResult = { ok: true; transition: TicketTransition; next: TicketState } | { ok: false; reason: string };

/**
 * The only ticket moves there are (spec §4). `PUT /tickets/:id` payloads are
 * classified here, by the server and by the web, so both agree on what is allowed.
 */
export function classifyTicketChange(current: TicketState, change: TicketChange): TransitionResult {
  const { status, userId, queueId } = change;
  const refuse = (reason: string): TransitionResult => ({ ok: false, reason });

  if (status === undefined) {
    // Transfer to a user (optionally with a queue): only userId (and queueId) are sent.
    if (userId === undefined || userId === null) return refuse("A transfer needs a user, or a queue with status pending");
    if (current.status === "closed") return refuse("A closed ticket cannot be transferred");
    return {
      ok: true,
      transition: "transfer",
      next: { status: current.status, userId, queueId: queueId === undefined ? current.queueId : queueId },
    };
  }

  if (status === "open") {
    if (queueId !== undefined) return refuse("Accepting or reopening does not change the queue");
    if (userId === undefined || userId === null) return refuse("Opening a ticket needs its assignee");
    if (current.status === "pending") return { ok: true, transition: "accept", next: { ...current, status, userId } };
    if (current.status === "closed") return { ok: true, transition: "reopen", next: { ...current, status, userId } };
    return refuse("The ticket is already open");
  }

  if (status === "pending") {
    if (userId !== undefined && userId !== null) return refuse("A pending ticket has no assignee");
    if (queueId !== undefined && queueId !== null) {
      if (current.status === "closed") return refuse("A closed ticket cannot be transferred");
      return { ok: true, transition: "transfer", next: { status, userId: null, queueId } };
    }
    if (current.status !== "open") return refuse("Only an open ticket can be returned to the queue");
    return { ok: true, transition: "return", next: { ...current, status, userId: null } };
  }

  // status === "closed"
  if (queueId !== undefined) return refuse("Resolving does not change the queue");
  if (current.status !== "open") return refuse("Only an open ticket can be resolved");
  return {
    ok: true,
    transition: "resolve",
    next: { ...current, status, userId: userId === undefined ? current.userId : userId },
  };
}
