/** The `@word` being typed just before the caret, if any: what the @ picker searches. */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|\s)@([^\s@]{0,30})$/.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[2].length - 1, query: match[2] };
}

/** Replace the `@query` at `start` with `@Name ` and give the new text and caret. */
export function insertMention(text: string, start: number, caret: number, name: string) {
  const inserted = `@${name} `;
  return { text: text.slice(0, start) + inserted + text.slice(caret), caret: start + inserted.length };
}

/** The picked colleagues still named in the text (a mention deleted from the text is dropped). */
export function mentionedIds(text: string, picked: { id: number; name: string }[]): number[] {
  return [...new Set(picked.filter((user) => text.includes(`@${user.name}`)).map((user) => user.id))];
}

/** Text split into plain parts and the `@Name` mentions of the given colleagues (longest names first). */
export function splitMentions(text: string, names: string[]): { text: string; mention: boolean; start: number }[] {
  const parts: { text: string; mention: boolean; start: number }[] = [];
  const wanted = [...new Set(names)].filter(Boolean).sort((a, b) => b.length - a.length);
  if (wanted.length === 0) return text ? [{ text, mention: false, start: 0 }] : [];
  const literal = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`@(?:${wanted.map(literal).join("|")})`, "g");
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const index = match.index ?? 0;
    if (index > last) parts.push({ text: text.slice(last, index), mention: false, start: last });
    parts.push({ text: match[0], mention: true, start: index });
    last = index + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), mention: false, start: last });
  return parts;
}
