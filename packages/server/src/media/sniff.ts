import type { MediaType } from "@zapdesk/core";

interface Signature {
  mime: string;
  ext: string;
  test(bytes: Buffer): boolean;
}

const at = (bytes: Buffer, offset: number, signature: number[] | string) => {
  const expected = typeof signature === "string" ? Buffer.from(signature, "latin1") : Buffer.from(signature);
  return bytes.length >= offset + expected.length && bytes.subarray(offset, offset + expected.length).equals(expected);
};

/** Magic numbers of the files customers and agents exchange; the claimed type is never trusted. */
const SIGNATURES: Signature[] = [
  { mime: "image/jpeg", ext: "jpg", test: (b) => at(b, 0, [0xff, 0xd8, 0xff]) },
  { mime: "image/png", ext: "png", test: (b) => at(b, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { mime: "image/gif", ext: "gif", test: (b) => at(b, 0, "GIF87a") || at(b, 0, "GIF89a") },
  { mime: "image/webp", ext: "webp", test: (b) => at(b, 0, "RIFF") && at(b, 8, "WEBP") },
  { mime: "audio/wav", ext: "wav", test: (b) => at(b, 0, "RIFF") && at(b, 8, "WAVE") },
  { mime: "application/pdf", ext: "pdf", test: (b) => at(b, 0, "%PDF-") },
  { mime: "audio/ogg", ext: "ogg", test: (b) => at(b, 0, "OggS") },
  { mime: "audio/mpeg", ext: "mp3", test: (b) => at(b, 0, "ID3") || (b.length > 1 && b[0] === 0xff && (b[1] & 0xe0) === 0xe0) },
  { mime: "audio/aac", ext: "aac", test: (b) => b.length > 1 && b[0] === 0xff && (b[1] & 0xf6) === 0xf0 },
  {
    mime: "video/mp4",
    ext: "mp4",
    test: (b) => at(b, 4, "ftyp") && !at(b, 8, "M4A") && !at(b, 8, "qt"),
  },
  { mime: "audio/mp4", ext: "m4a", test: (b) => at(b, 4, "ftypM4A") },
  { mime: "video/quicktime", ext: "mov", test: (b) => at(b, 4, "ftypqt") },
  { mime: "video/webm", ext: "webm", test: (b) => at(b, 0, [0x1a, 0x45, 0xdf, 0xa3]) },
  { mime: "application/zip", ext: "zip", test: (b) => at(b, 0, [0x50, 0x4b, 0x03, 0x04]) },
  { mime: "application/x-7z-compressed", ext: "7z", test: (b) => at(b, 0, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]) },
  { mime: "application/gzip", ext: "gz", test: (b) => at(b, 0, [0x1f, 0x8b]) },
  { mime: "application/msword", ext: "doc", test: (b) => at(b, 0, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) },
];

export interface SniffedType {
  mime: string;
  ext: string;
}

/**
 * The real type of a file from its first bytes. Office files are zip containers:
 * the claimed OOXML type is kept when the bytes are a zip. Anything unknown is an
 * opaque binary, which is never rendered by a browser.
 */
export function sniff(bytes: Buffer, claimedMime?: string): SniffedType {
  const found = SIGNATURES.find((s) => s.test(bytes));
  if (found?.mime === "application/zip" && claimedMime?.startsWith("application/vnd.openxmlformats")) {
    return { mime: claimedMime, ext: "zip" };
  }
  if (found) return { mime: found.mime, ext: found.ext };
  if (isPlainText(bytes) && claimedMime === "text/plain") return { mime: "text/plain", ext: "txt" };
  if (isPlainText(bytes) && claimedMime === "text/csv") return { mime: "text/csv", ext: "csv" };
  return { mime: "application/octet-stream", ext: "bin" };
}

function isPlainText(bytes: Buffer): boolean {
  const sample = bytes.subarray(0, 4096);
  for (const byte of sample) if (byte === 0) return false;
  return !/<\s*(html|script|svg|iframe|body|!doctype)/i.test(sample.toString("latin1"));
}

export function mediaTypeOf(mime: string): MediaType {
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("audio/")) return "audio";
  if (mime.startsWith("video/")) return "video";
  return "document";
}

/** Types a browser may show inline; everything else is served as an attachment. */
export function isInlineSafe(mime: string): boolean {
  return /^(image\/(jpeg|png|gif|webp)|audio\/(ogg|mpeg|mp4|aac|wav)|video\/(mp4|webm|quicktime)|application\/pdf)$/.test(mime);
}
