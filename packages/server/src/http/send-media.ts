import type { FastifyReply } from "fastify";
import { isInlineSafe } from "../media/sniff.js";
import type { ServedFile } from "../media/storage.js";

/**
 * Stream a message's file with the headers that keep it from running as a page of ours: only the
 * types a browser shows safely are inline (everything else is an octet-stream attachment), no
 * sniffing, a sandboxing CSP. One function for the authenticated route and the signed public link,
 * which differ only in how long the answer may be kept (`cacheControl`).
 */
export function sendMediaFile(reply: FastifyReply, file: ServedFile, cacheControl: string) {
  const inline = isInlineSafe(file.mime);
  reply
    .header("Content-Type", inline ? file.mime : "application/octet-stream")
    .header("Content-Length", String(file.size))
    .header("Content-Disposition", contentDisposition(inline ? "inline" : "attachment", file.name))
    .header("X-Content-Type-Options", "nosniff")
    .header("Content-Security-Policy", "default-src 'none'; sandbox")
    .header("Cache-Control", cacheControl);
  return reply.send(file.stream);
}

/**
 * The Content-Disposition of a file by its name: a quoted ASCII fallback in which nothing can end the
 * quotes or escape from them (a quote, a backslash, anything outside printable ASCII becomes "_"),
 * and the exact name in RFC 8187's encoding (with the characters `encodeURIComponent` leaves that
 * the encoding does not allow).
 */
export function contentDisposition(kind: "inline" | "attachment", name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${exact}`;
}
