import type { MultipartFile } from "@fastify/multipart";
import { AppError } from "../../lib/app-error.js";
import { mediaTypeOf, sniff } from "../../media/sniff.js";
import { type MediaStorage, safeFileName } from "../../media/storage.js";

export const UPLOAD_LIMITS = { fileSize: 16 * 1024 * 1024, files: 5, fields: 10, fieldSize: 64 * 1024 };

export interface UploadedMedia {
  path: string;
  name: string;
  mime: string;
  mediaType: string;
  asVoice?: boolean;
}

/** Save one uploaded file under a random name, with its type sniffed from the bytes, not the claim. */
export async function storeUpload(
  storage: MediaStorage,
  part: MultipartFile,
  options: { asVoice?: boolean } = {},
): Promise<UploadedMedia> {
  const data = await part.toBuffer();
  if (part.file.truncated) throw new AppError("ERR_VALIDATION", { status: 413, message: "File is too large" });
  if (data.length === 0) throw new AppError("ERR_VALIDATION", { details: [{ path: ["medias"], message: "Empty file" }] });
  return storeBuffer(storage, data, part.filename, part.mimetype, options);
}

export async function storeBuffer(
  storage: MediaStorage,
  data: Buffer,
  filename: string | undefined,
  claimedMime: string | undefined,
  options: { asVoice?: boolean } = {},
): Promise<UploadedMedia> {
  const type = sniff(data, claimedMime);
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
