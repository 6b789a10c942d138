import { apiSendSchema } from "@zapdesk/core";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../lib/app-error.js";
import type { MediaStorage } from "../../media/storage.js";
import { removeStored, streamFilePart, type UploadedMedia } from "./uploads.js";

const FILE_FIELDS = new Set(["medias", "media"]);

function validationError(issues: { path: PropertyKey[]; message: string }[]): AppError {
  return new AppError("ERR_VALIDATION", {
    details: issues.map((i) => ({ path: i.path.map((p) => (typeof p === "number" ? p : String(p))), message: i.message })),
  });
}

/**
 * The API-token send's body (issue 22 §6). JSON `{ number, body }`, or multipart whose `medias`
 * files are streamed to storage as they arrive, under the per-file size limit: an integration's
 * upload is never held whole in memory (so it takes no room of the upload budget either). Files
 * stored for a request that then fails (a file over the limit, bad fields, a client that went away)
 * are removed before the error is answered; after this, `messages.withStored` owns them.
 */
export async function readApiSendBody(request: FastifyRequest, storage: MediaStorage) {
  if (!request.isMultipart()) {
    const parsed = apiSendSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw validationError(parsed.error.issues);
    if (!parsed.data.body.trim()) throw validationError([{ path: ["body"], message: "Required" }]);
    return { ...parsed.data, medias: [] as UploadedMedia[] };
  }
  const fields: Record<string, string> = {};
  const medias: UploadedMedia[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type !== "file") {
        fields[part.fieldname] = String(part.value ?? "");
        continue;
      }
      if (!FILE_FIELDS.has(part.fieldname)) {
        part.file.resume();
        throw validationError([{ path: [part.fieldname], message: "Unexpected file field" }]);
      }
      medias.push(await streamFilePart(storage, part));
    }
    const parsed = apiSendSchema.safeParse(fields);
    if (!parsed.success) throw validationError(parsed.error.issues);
    if (medias.length === 0 && !parsed.data.body.trim()) throw validationError([{ path: ["body"], message: "Required" }]);
    return { ...parsed.data, medias };
  } catch (error) {
    await removeStored(
      storage,
      medias.map((media) => media.path),
    );
    // The parser's own failures (a truncated or garbled body) are the client's, not ours.
    if (error instanceof AppError || (error as { statusCode?: number }).statusCode) throw error;
    throw new AppError("ERR_VALIDATION", { message: "Malformed multipart body" });
  }
}
