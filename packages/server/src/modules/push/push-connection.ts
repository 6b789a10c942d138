import { type Connection, newChatBlock, type PushPayload } from "@zapdesk/core";

const utc = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

/**
 * What admins' phones show when WhatsApp restricts a connection's number: which connection, what
 * is restricted until when, or how much of the new-chat cap is used. Opens the Connections screen;
 * one tag per connection, so a later report replaces the earlier one.
 */
export function restrictionPayloadFor(connection: Connection, now: Date): PushPayload | undefined {
  const restriction = connection.restriction;
  if (!restriction) return undefined;
  const block = newChatBlock(restriction, now);
  const cap = restriction.newChatCap;
  const quota = cap && cap.used !== null && cap.total !== null ? ` (${cap.used}/${cap.total})` : "";
  let body: string;
  if (block?.kind === "timeLock") {
    body = `WhatsApp blocks new chats${block.until ? ` until ${utc(block.until.toISOString())}` : ""}; automatic messages to them are held.`;
  } else if (block) {
    body = `Monthly cap on new chats reached${quota}; automatic messages to new chats are held.`;
  } else if (cap && cap.status !== "NONE") {
    body = `WhatsApp warns that the monthly cap on new chats is near${quota}.`;
  } else {
    return undefined;
  }
  return { title: `⚠ ${connection.name}`, body, url: "/connections", tag: `connection-${connection.id}`, ticketId: null };
}
