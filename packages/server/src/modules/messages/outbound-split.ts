/**
 * The Cloud API refuses (error 100) a text over 4,096 characters and a caption over 1,024. A
 * longer message goes as several, each its own stored row with its own id and status, in order.
 * QR connections take far longer texts (WhatsApp's own limit, about 65,000) and are not split.
 */
export const CLOUD_TEXT_MAX = 4096;
export const CLOUD_CAPTION_MAX = 1024;

/** Where to cut, best first: between paragraphs, between lines, between words. */
const BREAKS = ["\n\n", "\n", " "];

/** The end of the first part of `text` (at most `max` long), and where the next part starts. */
function cutOf(text: string, max: number): { end: number; next: number } {
  const window = text.slice(0, max + 1);
  for (const mark of BREAKS) {
    const at = window.lastIndexOf(mark);
    // A break in the first half would leave a stub of a part: a harder cut reads better.
    if (at > max / 2 && at <= max) return { end: at, next: at + mark.length };
  }
  // No break near the limit: a hard cut, never between the two halves of a surrogate pair (an emoji).
  const code = text.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return { end, next: end };
}

/** `text` in parts of at most `max` characters, cut at paragraph, line or word breaks when there are. */
export function splitText(text: string, max: number): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const { end, next } = cutOf(rest, max);
    parts.push(rest.slice(0, end));
    rest = rest.slice(next);
  }
  parts.push(rest);
  return parts.filter((part, index) => index === 0 || part.trim() !== "");
}

/**
 * The bodies a Cloud API message goes as: a text in parts of 4,096; a caption over 1,024 as its
 * first 1,024 (cut at a break) with the media, the rest as text messages after it.
 */
export function cloudParts(body: string, hasMedia: boolean): string[] {
  if (!hasMedia) return splitText(body, CLOUD_TEXT_MAX);
  if (body.length <= CLOUD_CAPTION_MAX) return [body];
  const [caption] = splitText(body, CLOUD_CAPTION_MAX);
  const rest = body.slice(caption.length).replace(/^\s+/, "");
  return [caption, ...splitText(rest, CLOUD_TEXT_MAX)];
}
