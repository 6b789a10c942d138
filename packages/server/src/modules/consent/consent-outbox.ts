import { OPTED_OUT_CODE } from "@zapdesk/core";
import type { Db } from "../../db/client.js";
import { isAutomatic } from "../../jobs/outbox-hold.js";
import { isOptedOut } from "./consent.repo.js";

const utc = (date: Date) => `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/**
 * Issue 22 §3, the outbox's last gate: an automatic message (a bot's, a schedule's, an API send,
 * the CSAT question, a farewell: `isAutomatic`, the same classification as a restricted number's
 * holds) to a customer who opted out and has not written since is not sent. It is skipped for good
 * (ack -1) with the reason on the message; an agent's message is never looked at here. Groups are
 * nobody's opt-out. Returns the failure to record, or null to send.
 */
export async function optOutSkipOf(
  db: Db,
  input: { message: { fromBot: boolean; raw: unknown }; contactId: number; isGroup: boolean },
): Promise<{ code: string; title: string } | null> {
  if (input.isGroup || !isAutomatic(input.message)) return null;
  const since = await isOptedOut(db, input.contactId);
  if (!since) return null;
  return {
    code: OPTED_OUT_CODE,
    title: `Not sent: the customer opted out of automatic messages on ${utc(since)} and has not written since. An agent's own answer still goes.`,
  };
}
