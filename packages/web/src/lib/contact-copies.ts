import type { QueryClient } from "@tanstack/react-query";
import type { Contact } from "@zapdesk/core";
import { updateQueries } from "./query-updates";

type Copy = {
  id: number;
  name: string;
  number: string;
  profilePicUrl: string;
  extraInfo?: Contact["extraInfo"];
  ownerId?: number | null;
};

/** What a ticket or message keeps of its contact, refreshed from the edited contact. */
function refreshed(copy: Copy, contact: Contact): Copy {
  const { name, number, profilePicUrl, extraInfo } = contact;
  return {
    ...copy,
    name,
    number,
    profilePicUrl,
    ...(extraInfo && "extraInfo" in copy ? { extraInfo } : {}),
    // Issue 23 §5: the owner (the drawer and "my customers" read it from the ticket's copy).
    ...(contact.ownerId !== undefined ? { ownerId: contact.ownerId } : {}),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** `data` with every `contact` copy of that contact refreshed; the same object when none was found. */
function withContact(data: unknown, contact: Contact): unknown {
  if (Array.isArray(data)) {
    const next = data.map((item) => withContact(item, contact));
    return next.some((item, i) => item !== data[i]) ? next : data;
  }
  if (!isRecord(data)) return data;
  let changed = false;
  const next: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const copy = value as Copy | null;
    const updated =
      key === "contact" && isRecord(copy) && copy.id === contact.id ? refreshed(copy, contact) : withContact(value, contact);
    changed ||= updated !== value;
    next[key] = updated;
  }
  return changed ? next : data;
}

/**
 * Tickets (lists, the open one, the bell) and messages carry their own copy of the contact:
 * an edited contact reaches every cached copy, whichever feature's query holds it.
 */
export function refreshContactCopies(client: QueryClient, contact: Contact): void {
  updateQueries<unknown>(client, {}, (data) => withContact(data, contact));
}
