import type { Readable } from "node:stream";
import type { OutboundMedia } from "../channel.js";
import type { GraphClient } from "./graph-client.js";

/** How Meta sends a file: image and video only in the formats it plays, audio, or else a document. */
export type CloudMediaKind = "image" | "video" | "audio" | "document";

export function mediaKind(media: OutboundMedia): CloudMediaKind {
  const mime = media.mimetype.split(";")[0].trim().toLowerCase();
  if (media.asVoice || mime.startsWith("audio/")) return "audio";
  if (mime === "image/jpeg" || mime === "image/png") return "image";
  if (mime === "video/mp4" || mime === "video/3gpp") return "video";
  return "document";
}

/** The MIME type Meta accepts for the upload (voice notes are OGG/Opus; parameters dropped). */
function uploadType(media: OutboundMedia): string {
  return media.asVoice ? "audio/ogg" : media.mimetype.split(";")[0].trim().toLowerCase() || "application/octet-stream";
}

/** POST /{phone-number-id}/media (multipart: messaging_product, type, file) → the media id to send by. */
export async function uploadMedia(client: GraphClient, phoneNumberId: string, media: OutboundMedia): Promise<string> {
  const type = uploadType(media);
  const form = new FormData();
  form.set("messaging_product", "whatsapp");
  form.set("type", type);
  form.set("file", new Blob([new Uint8Array(media.data)], { type }), media.filename);
  const res = await client.postForm<{ id?: string }>(`${phoneNumberId}/media`, form);
  if (!res.id) throw new Error("Meta answered the upload without a media id");
  return res.id;
}

/**
 * GET /{media-id} gives a URL that lives about five minutes; the file is then downloaded from it
 * with the same bearer token. Media ids in webhooks expire after 7 days.
 */
export async function downloadMedia(client: GraphClient, mediaId: string, maxBytes: number): Promise<Readable> {
  const info = await client.get<{ url?: string; file_size?: string | number }>(mediaId);
  if (!info.url) throw new Error(`no URL for media ${mediaId}`);
  if (Number(info.file_size ?? 0) > maxBytes) throw new Error(`media ${mediaId} is over the size limit`);
  return client.download(info.url, maxBytes);
}
