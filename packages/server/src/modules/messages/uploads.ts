import type { MultipartFile } from "@fastify/multipart";
import { AppError } from "../../lib/app-error.js";
import { mediaTypeOf, sniff } from "../../media/sniff.js";
import { type MediaStorage, MediaTooLargeError, safeFileName } from "../../media/storage.js";
import { storeStream } from "../../media/store-stream.js";
import { isWhatsAppVoiceNote, toOggOpus } from "../../media/voice.js";

export const UPLOAD_LIMITS = { fileSize: 16 * 1024 * 1024, files: 5, fields: 10, fieldSize: 64 * 1024 };
/** The most one multipart request can carry within those limits (what a request of unknown length reserves). */
export const MAX_UPLOAD_REQUEST_BYTES =
  UPLOAD_LIMITS.files * UPLOAD_LIMITS.fileSize + UPLOAD_LIMITS.fields * UPLOAD_LIMITS.fieldSize;

export interface UploadedMedia {
  path: string;
  name: string;
  mime: string;
  mediaType: string;
  asVoice?: boolean;
}

/** Files read from a request, held in memory until every check has passed: nothing is stored for a refused send. */
export interface PendingUpload {
  files: { data: Buffer; filename: string; mimetype: string }[];
  asVoice: boolean;
}

export const NO_UPLOAD: PendingUpload = { files: [], asVoice: false };

const tooLarge = () => new AppError("ERR_PAYLOAD_TOO_LARGE", { message: "File is too large" });

/** The bytes of an uploaded file; a file over the size limit is refused, never truncated silently. */
export async function readFilePart(part: MultipartFile): Promise<Buffer> {
  const data = await part.toBuffer();
  if (part.file.truncated) throw tooLarge();
  if (data.length === 0) throw new AppError("ERR_VALIDATION", { details: [{ path: ["medias"], message: "Empty file" }] });
  return data;
}

/**
 * Stream an uploaded file to storage as it arrives, never holding it whole in memory: its type is
 * sniffed from the first bytes (not the claim). A file over the size limit (the parser stops at it
 * and marks the part truncated) or empty is refused and its partial copy removed; a request that
 * ends early fails the copy, which storage removes too.
 */
export async function streamFilePart(storage: MediaStorage, part: MultipartFile): Promise<UploadedMedia> {
  let stored: Awaited<ReturnType<typeof storeStream>>;
  try {
    stored = await storeStream(storage, part.file, {
      filename: part.filename,
      claimedMime: part.mimetype,
      maxBytes: UPLOAD_LIMITS.fileSize,
    });
  } catch (error) {
    throw error instanceof MediaTooLargeError ? tooLarge() : error;
  }
  if (part.file.truncated || stored.size === 0) {
    await removeStored(storage, [stored.path]);
    if (part.file.truncated) throw tooLarge();
    throw new AppError("ERR_VALIDATION", { details: [{ path: ["medias"], message: "Empty file" }] });
  }
  return { path: stored.path, name: stored.name, mime: stored.mime, mediaType: stored.mediaType };
}

/** Save a file under a random name, with its type sniffed from the bytes, not the claim. */
export async function storeBuffer(
  storage: MediaStorage,
  input: Buffer,
  filename: string | undefined,
  claimedMime: string | undefined,
  options: { asVoice?: boolean } = {},
): Promise<UploadedMedia> {
  let data = input;
  let type = sniff(data, claimedMime);
  // Browsers record Ogg/Opus too, but not shaped as WhatsApp's voice notes (48 kHz, one frame per packet).
  if (options.asVoice && mediaTypeOf(type.mime) === "audio" && !isWhatsAppVoiceNote(data)) {
    const converted = await toOggOpus(data);
    if (converted) {
      data = converted;
      type = sniff(data, "audio/ogg");
      filename = `${(filename ?? "voice").replace(/\.[^.]+$/, "")}.ogg`;
    }
  }
  const saved = await storage.save(data, type.ext);
  const mediaType = mediaTypeOf(type.mime);
  return {
    path: saved.path,
    name: safeFileName(filename, type.ext),
    mime: type.mime,
    mediaType,
    asVoice: options.asVoice && mediaType === "audio",
  };
}

/** Store every file of an upload; when one fails, those already stored are removed. */
export async function storeUpload(storage: MediaStorage, upload: PendingUpload): Promise<UploadedMedia[]> {
  const medias: UploadedMedia[] = [];
  try {
    for (const file of upload.files) {
      medias.push(await storeBuffer(storage, file.data, file.filename, file.mimetype, { asVoice: upload.asVoice }));
    }
    return medias;
  } catch (error) {
    await removeStored(
      storage,
      medias.map((m) => m.path),
    );
    throw error;
  }
}

/** Best effort: a file that cannot be removed now is only wasted space, never a reason to fail a request. */
export async function removeStored(storage: MediaStorage, paths: string[]): Promise<void> {
  await Promise.all(paths.map((path) => storage.remove(path).catch(() => {})));
}
