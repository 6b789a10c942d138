import type { MediaType, Message } from "@zapdesk/core";
import type { JoinedMessage } from "./messages.repo.js";
import { outboundIntent } from "./outbound.js";

export const mediaUrlOf = (messageId: number) => `/api/messages/${messageId}/media`;

export function presentMessage(row: JoinedMessage): Message {
  const { message } = row;
  return {
    id: message.id,
    ticketId: message.ticketId,
    body: message.body,
    fromMe: message.fromMe,
    read: message.read,
    ack: message.ack,
    mediaType: message.mediaType as MediaType,
    mediaUrl: message.mediaPath ? mediaUrlOf(message.id) : null,
    mediaName: message.mediaName,
    mediaError: message.mediaError,
    isDeleted: message.isDeleted,
    isEdited: message.isEdited,
    fromBot: message.fromBot,
    // Automatic messages stored before the kind was recorded (and imported ones) are the system's.
    automation: message.fromBot ? (outboundIntent(message.raw).automation ?? "system") : null,
    isNote: message.isNote,
    mentions: row.mentions ?? [],
    error: message.errorCode ? { code: message.errorCode, title: message.errorTitle ?? "" } : null,
    reactions: message.reactions.map(({ emoji, fromMe, name }) => ({ emoji, fromMe, name })),
    createdAt: message.createdAt.toISOString(),
    updatedAt: message.updatedAt.toISOString(),
    contact: row.contact,
    user: row.user,
    quotedMsg: row.quoted
      ? {
          id: row.quoted.id,
          body: row.quoted.body,
          fromMe: row.quoted.fromMe,
          mediaType: row.quoted.mediaType as MediaType,
          isDeleted: row.quoted.isDeleted,
          contact: row.quotedContact,
        }
      : null,
  };
}
