/**
 * Ticket previews (`lastMessage`) of a shared contact and a location: a mark, then the contact's
 * name or the place's label. Clients show "Contact: name" / "Location: label" in the agent's language
 * (issue 20 §2.2); the emoji reads right where no translation runs (push notifications), and the word
 * joiner after it keeps a customer who types the emoji from being read as a shared contact.
 */
export const CONTACT_PREVIEW_MARK = "\u{1F464}\u2060";
export const LOCATION_PREVIEW_MARK = "\u{1F4CD}\u2060";

/** The name (FN) of a vCard, else its N, else "". */
export function vcardName(vcard: string): string {
  const lines = vcard.split(/\r?\n/);
  const fn = lines.find((l) => /^FN[;:]/i.test(l));
  if (fn) return fn.slice(fn.indexOf(":") + 1).trim();
  const n = lines.find((l) => /^N[;:]/i.test(l));
  if (!n) return "";
  return n
    .slice(n.indexOf(":") + 1)
    .split(";")
    .filter(Boolean)
    .reverse()
    .join(" ")
    .trim();
}

/** The description of a stored location body ("image|link|description"), the first line of it. */
export function locationLabel(body: string): string {
  const [, , ...rest] = body.split("|");
  return rest.join("|").split("\n")[0]?.trim() ?? "";
}

/** The preview of a stored shared contact or location; undefined for any other kind of message. */
export function specialPreview(mediaType: string, body: string): string | undefined {
  if (mediaType === "vcard") return `${CONTACT_PREVIEW_MARK}${vcardName(body)}`;
  if (mediaType === "location") return `${LOCATION_PREVIEW_MARK}${locationLabel(body)}`;
  return undefined;
}

/** A preview read back: what kind it is and the text after the mark. */
export function readPreview(preview: string): { kind: "contact" | "location"; text: string } | undefined {
  if (preview.startsWith(CONTACT_PREVIEW_MARK)) return { kind: "contact", text: preview.slice(CONTACT_PREVIEW_MARK.length) };
  if (preview.startsWith(LOCATION_PREVIEW_MARK)) return { kind: "location", text: preview.slice(LOCATION_PREVIEW_MARK.length) };
  return undefined;
}
