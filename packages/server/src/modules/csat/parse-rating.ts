/** Stars customers type or pick from the emoji keyboard. */
const STARS = /[\u2B50\u2605\u{1F31F}]/gu;

/**
 * A customer's answer to the satisfaction question, read tolerantly: a single digit 1–5 alone,
 * whatever punctuation, spaces or emoji surround it ("5", " 4 ", "5!", "5 👍", the keycap "5️⃣"),
 * or one to five stars and nothing else ("⭐⭐⭐⭐"). Anything with words or other numbers ("nota 5",
 * "10", "4.5", "obrigado") is not an answer: undefined.
 */
export function parseRating(body: string): number | undefined {
  const text = body.normalize("NFKC").trim();
  if (!text || text.length > 40) return undefined;
  const significant = text.replace(/[^\p{L}\p{N}]/gu, "");
  if (significant.length === 1 && /^[1-5]$/.test(significant)) return Number(significant);
  if (significant.length > 0) return undefined;
  const stars = text.match(STARS)?.length ?? 0;
  const rest = text.replace(STARS, "").replace(/\s|\uFE0F/gu, "");
  if (stars >= 1 && stars <= 5 && rest === "") return stars;
  return undefined;
}
