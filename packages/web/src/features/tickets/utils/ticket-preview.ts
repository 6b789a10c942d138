import { type Message, PLACEHOLDER_PREVIEW, readPreview, specialPreview } from "@zapdesk/core";
import type { TFunction } from "i18next";

/**
 * A ticket's preview as the agent reads it: the server stores a fixed mark while the newest
 * message is a placeholder (WhatsApp could not decrypt it yet), and a marked name for a shared
 * contact or a location (issue 20 §2.2), shown in the agent's language.
 */
export function ticketPreview(lastMessage: string, t: TFunction): string {
  if (lastMessage === PLACEHOLDER_PREVIEW) return t("tickets.preview.placeholder");
  const special = readPreview(lastMessage);
  if (!special) return lastMessage;
  const text = special.text.trim();
  return text ? t(`tickets.preview.${special.kind}`, { text }) : t(`tickets.preview.${special.kind}Bare`);
}

/** A message's text for a notification or a quote: a placeholder has none yet; a contact or a location is named. */
export function messagePreview(message: Pick<Message, "body" | "mediaType">, t: TFunction): string {
  if (message.mediaType === "placeholder") return t("tickets.preview.placeholder");
  const special = specialPreview(message.mediaType, message.body);
  return special === undefined ? message.body : ticketPreview(special, t);
}
