import { menuLevelText } from "@zapdesk/core";

/** The queue menu a customer gets from a connection with two or more queues (design §4). */

export const MENU_MIN_INTERVAL_MS = 5000;

export function menuText(greeting: string, queues: { name: string }[]): string {
  return menuLevelText(
    greeting,
    queues.map((q) => q.name),
  );
}

/** The queue picked by an answer like "2" or " 2 ", or undefined. */
export function pickQueue<T>(answer: string, queues: T[]): T | undefined {
  const match = /^\s*\*?(\d{1,3})\*?\s*$/.exec(answer);
  if (!match) return undefined;
  return queues[Number(match[1]) - 1];
}

/** Greetings may address the customer: "Hello {{name}}!". */
export function personalise(text: string, name: string): string {
  return text.replace(/\{\{\s*name\s*\}\}/gi, name);
}

/** Location bodies are "image|link|description" (spec §2); the image is WhatsApp's thumbnail. */
export function locationBody(location: { latitude: number; longitude: number; description?: string; thumbnailBase64?: string }) {
  const image = location.thumbnailBase64 ? `data:image/jpeg;base64,${location.thumbnailBase64}` : "";
  const link = `https://maps.google.com/maps?q=${location.latitude}%2C${location.longitude}&z=17&hl=pt-BR`;
  return [image, link, ...(location.description ? [location.description] : [])].join("|");
}
