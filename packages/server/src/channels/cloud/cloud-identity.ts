import type { AddressChange, BsuidMapping } from "../channel.js";
import type { CloudContact, CloudMessage } from "./cloud-translate.js";

/**
 * Who a Cloud API payload names (issue 18 §3), in Meta's 2026 shapes ("Business-scoped user IDs",
 * updated 2026-11-05; system messages, 2026-08-11): a phone number (`wa_id`, `from`), a
 * business-scoped user id (BSUID: `user_id`, `from_user_id`) beside it or instead of it, a
 * username, and the system messages that say a customer moved.
 */

export const digits = (value: string | undefined) => (value ?? "").replace(/\D/g, "");

/**
 * Who wrote a message, as an address: the phone number WhatsApp knows (`wa_id`, which can differ
 * from `from`, e.g. a Brazilian number without the ninth digit), else the BSUID of a customer
 * whose number Meta withholds (`from`/`wa_id` absent since 2026-06). Shown by profile name, or
 * by username when there is no name.
 */
export function authorOf(message: CloudMessage, contacts: CloudContact[]) {
  const entry =
    contacts.find(
      (c) => (message.from && c.wa_id === message.from) || (message.from_user_id && c.user_id === message.from_user_id),
    ) ?? (contacts.length === 1 ? contacts[0] : undefined);
  const phone = digits(entry?.wa_id ?? message.from);
  const bsuid = entry?.user_id ?? message.from_user_id;
  const address = phone || bsuid;
  if (!address) return undefined;
  const username = entry?.profile?.username;
  return { address, name: entry?.profile?.name ?? username, username };
}

/**
 * The `contacts[]` of a payload (messages, or sent/delivered/read statuses) that name both a
 * phone number and a BSUID: one customer, whom later payloads may name by the BSUID alone.
 */
export function identitiesOf(contacts: CloudContact[] | undefined): BsuidMapping[] {
  const out: BsuidMapping[] = [];
  for (const c of Array.isArray(contacts) ? contacts : []) {
    const pn = digits(c?.wa_id);
    if (!pn || typeof c.user_id !== "string" || !c.user_id) continue;
    out.push({ kind: "bsuid", bsuid: c.user_id, pn, ...(c.profile?.username ? { username: c.profile.username } : {}) });
  }
  return out;
}

/**
 * A `system` message saying the customer moved (system messages carry no `contacts[]`):
 * `user_changed_number` names the new number in `system.wa_id` (and the new BSUID in
 * `system.user_id`); `user_changed_user_id` names the old BSUID in `previous_user_id`.
 */
export function addressChangeOf(message: CloudMessage): AddressChange | undefined {
  const system = message?.system;
  if (message?.type !== "system" || !system) return undefined;
  if (system.type === "user_changed_number") {
    const to = digits(system.wa_id);
    const from = digits(message.from) || system.previous_user_id || message.from_user_id;
    if (!to || !from) return undefined;
    return { kind: "changed", from, to, ...(system.user_id ? { bsuid: system.user_id } : {}) };
  }
  if (system.type === "user_changed_user_id") {
    const from = system.previous_user_id;
    const to = system.user_id;
    return from && to ? { kind: "changed", from, to } : undefined;
  }
  return undefined;
}
