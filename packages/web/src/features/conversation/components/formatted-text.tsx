import Link from "@mui/material/Link";
import type { ReactNode } from "react";

// Links first, so an asterisk or tilde inside a URL never starts a style.
const TOKEN = /(https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]])|\*([^*\n]+)\*|~([^~\n]+)~/g;

/**
 * WhatsApp formatting as React elements (spec §2): *bold*, ~strike~ and links in a
 * new tab. Everything else stays text, so markup in a message can never become HTML.
 */
export function formatWhatsapp(text: string, keyPrefix = "f"): ReactNode[] {
  const nodes: ReactNode[] = [];
  let last = 0;
  let index = 0;
  for (const match of text.matchAll(TOKEN)) {
    const start = match.index ?? 0;
    if (start > last) nodes.push(text.slice(last, start));
    const key = `${keyPrefix}-${index++}`;
    const [, url, bold, strike] = match;
    if (url) {
      nodes.push(
        <Link key={key} href={url} target="_blank" rel="noopener noreferrer">
          {url}
        </Link>,
      );
    } else if (bold !== undefined) {
      nodes.push(<strong key={key}>{formatWhatsapp(bold, key)}</strong>);
    } else {
      nodes.push(<del key={key}>{formatWhatsapp(strike, key)}</del>);
    }
    last = start + match[0].length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}

export function FormattedText({ text }: { text: string }) {
  return <>{formatWhatsapp(text)}</>;
}
