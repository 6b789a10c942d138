import { type Message, PLACEHOLDER_PREVIEW } from "@zapdesk/core";
import type { TFunction } from "i18next";

/**
 * A ticket's preview as the agent reads it: the server stores a fixed mark while the newest
 * message is a placeholder (WhatsApp could not decrypt it here yet), shown in the agent's language.
 */
export function ticketPreview(lastMessage: string, t: TFunction): string {
  return lastMessage === PLACEHOLDER_PREVIEW ? t("tickets.preview.placeholder") : lastMessage;
}

/** A message's text for a notification or a quote: a placeholder has none yet. */
export function messagePreview(message: Pick<Message, "body" | "mediaType">, t: TFunction): string {
  return message.mediaType === "placeholder" ? t("tickets.preview.placeholder") : message.body;
}
