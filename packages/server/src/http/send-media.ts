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
    .header(
      "Content-Disposition",
      `${inline ? "inline" : "attachment"}; filename="${file.name.replace(/[^\x20-\x7e]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    )
    .header("X-Content-Type-Options", "nosniff")
    .header("Content-Security-Policy", "default-src 'none'; sandbox")
    .header("Cache-Control", cacheControl);
  return reply.send(file.stream);
}
