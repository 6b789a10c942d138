/**
 * Issue 22 §3: consent and opt-out. The words a customer answers with are matched whole, after
 * folding case, accents, punctuation and spaces: "Sáir!", " stop " and "PARAR." are the word, "please
 * stop sending" is not (a whole-message match never mistakes a sentence for an opt-out).
 */

/** What a consent record says (per contact; the connection or queue it was given on). */
export const CONSENT_KINDS = ["asked", "accepted", "declined", "opted_out", "opted_in"] as const;
export type ConsentKind = (typeof CONSENT_KINDS)[number];

/** Install-wide opt-out words until an admin changes them. */
export const DEFAULT_OPT_OUT_WORDS = ["SAIR", "PARAR", "STOP"] as const;
export const DEFAULT_ACCEPT_WORDS = ["SIM", "ACEITO", "YES", "SI", "ACEPTO"] as const;
export const DEFAULT_DECLINE_WORDS = ["NAO", "NAO ACEITO", "NO", "NO ACEPTO"] as const;
/** Most words in one list, and the longest word. */
export const CONSENT_WORDS_MAX = 20;
export const CONSENT_WORD_MAX_LENGTH = 40;

/** A message or a word folded for comparison: lower case, no accents, no punctuation or emoji, single spaces. */
export function foldWord(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Whether a whole message is one of the words (case, accents and punctuation aside). */
export function matchesWord(body: string, words: readonly string[]): boolean {
  const folded = foldWord(body);
  if (!folded) return false;
  return words.some((word) => foldWord(word) === folded);
}

/** What a customer's message does to their consent on one scope, given the last record there. */
export function consentAnswerOf(
  body: string,
  config: { acceptWords: readonly string[]; declineWords: readonly string[] },
): "accepted" | "declined" | undefined {
  if (matchesWord(body, config.acceptWords)) return "accepted";
  if (matchesWord(body, config.declineWords)) return "declined";
  return undefined;
}

/**
 * The opt-out records a customer's messages make, in order: an opt-out word stops automatic sends
 * (once: saying it again changes nothing), any other message afterwards lifts it ("until they
 * write again"). `optedOut` is the state before the first message.
 */
export function optOutTransitions<T extends { body: string }>(
  optedOut: boolean,
  messages: readonly T[],
  words: readonly string[],
): { message: T; kind: "opted_out" | "opted_in" }[] {
  const changes: { message: T; kind: "opted_out" | "opted_in" }[] = [];
  let out = optedOut;
  for (const message of messages) {
    const stop = matchesWord(message.body, words);
    if (stop && !out) changes.push({ message, kind: "opted_out" });
    else if (!stop && out) changes.push({ message, kind: "opted_in" });
    out = stop;
  }
  return changes;
}

/** The code of an automatic message not sent because its customer opted out (the chat shows it with the reason). */
export const OPTED_OUT_CODE = "OPTED_OUT";
