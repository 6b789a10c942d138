import {
  idParamsSchema,
  MESSAGE_MAX_LENGTH,
  messageListQuerySchema,
  messageListSchema,
  messageSchema,
  messageSendSchema,
  ticketIdParamsSchema,
} from "@zapdesk/core";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf } from "../../http/auth.js";
import { sendMediaFile } from "../../http/send-media.js";
import { AppError } from "../../lib/app-error.js";
import type { RouteContext } from "../../services.js";
import { readApiSendBody } from "./api-upload.js";
import { NO_UPLOAD, type PendingUpload, readFilePart } from "./uploads.js";

function validationError(issues: { path: PropertyKey[]; message: string }[]): AppError {
  return new AppError("ERR_VALIDATION", {
    details: issues.map((i) => ({ path: i.path.map((p) => (typeof p === "number" ? p : String(p))), message: i.message })),
  });
}

/** Multipart fields and `medias` files, read into memory: nothing is stored before the send is checked. */
async function readMultipart(request: FastifyRequest) {
  const fields: Record<string, string> = {};
  const files: PendingUpload["files"] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === "file") {
        if (part.fieldname !== "medias" && part.fieldname !== "media") {
          await part.toBuffer();
          throw validationError([{ path: [part.fieldname], message: "Unexpected file field" }]);
        }
        files.push({ data: await readFilePart(part), filename: part.filename, mimetype: part.mimetype });
      } else {
        fields[part.fieldname] = String(part.value ?? "");
      }
    }
  } catch (error) {
    // The parser's own failures (a truncated or garbled body) are the client's, not ours.
    if (error instanceof AppError || (error as { statusCode?: number }).statusCode) throw error;
    throw new AppError("ERR_VALIDATION", { message: "Malformed multipart body" });
  }
  return { fields, upload: { files, asVoice: fields.isVoice === "true" } satisfies PendingUpload };
}

/** A send is JSON `{ body, quotedMsg? }` or multipart (`medias`, `body`, `quotedMsgId`, `isVoice`), as the spec allows. */
async function readSendBody(request: FastifyRequest) {
  if (!request.isMultipart()) {
    const parsed = messageSendSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw validationError(parsed.error.issues);
    const quotedMsg = parsed.data.quotedMsg ? { id: parsed.data.quotedMsg.id } : null;
    if (parsed.data.isNote && quotedMsg) throw validationError([{ path: ["quotedMsg"], message: "A note cannot quote" }]);
    const note = parsed.data.isNote ? { mentions: parsed.data.mentions ?? [] } : null;
    return { body: parsed.data.body, quotedMsg, upload: NO_UPLOAD, note };
  }
  const { fields, upload } = await readMultipart(request);
  // Notes are text only, sent as JSON: a multipart note is refused rather than sent to the customer.
  if ("isNote" in fields || "mentions" in fields) {
    throw validationError([{ path: ["isNote"], message: "A note is sent as JSON, without files" }]);
  }
  const body = fields.body ?? "";
  if (body.length > MESSAGE_MAX_LENGTH) throw validationError([{ path: ["body"], message: "Too Long!" }]);
  if (upload.files.length === 0 && !body.trim()) throw validationError([{ path: ["body"], message: "Required" }]);
  const quotedId = Number(fields.quotedMsgId);
  return { body, quotedMsg: Number.isInteger(quotedId) && quotedId > 0 ? { id: quotedId } : null, upload, note: null };
}

export const messageRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate }) => {
  const tags = ["messages"];
  const { messages } = services;

  app.register(async (plugin) => {
    const secured = plugin.withTypeProvider<ZodTypeProvider>();
    secured.addHook("onRequest", authenticate);

    secured.get(
      "/messages/:ticketId",
      {
        schema: { tags, params: ticketIdParamsSchema, querystring: messageListQuerySchema, response: { 200: messageListSchema } },
      },
      (request) => messages.list(actorOf(request), request.params.ticketId, request.query),
    );

    secured.post(
      "/messages/:ticketId",
      {
        schema: {
          tags,
          description:
            "JSON `{ body, quotedMsg? }`, or multipart with `medias` files, `body` (caption) and `isVoice`. " +
            "A private note (never sent to the customer): JSON `{ body, isNote: true, mentions?: [userId] }`.",
          params: ticketIdParamsSchema,
          response: { 201: messageSchema },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        // Refused before a byte of the upload is read (access, ticket state, window).
        if (request.isMultipart()) await messages.sendable(actor, request.params.ticketId);
        const input = await readSendBody(request);
        if (input.note) {
          const note = await services.notes.create(actor, request.params.ticketId, { body: input.body, ...input.note });
          return reply.status(201).send(note);
        }
        const sent = await messages.send(
          actor,
          request.params.ticketId,
          { body: input.body, quotedMsg: input.quotedMsg },
          input.upload,
        );
        return reply.status(201).send(sent[0]);
      },
    );

    secured.delete("/messages/:id", { schema: { tags, params: idParamsSchema, response: { 200: messageSchema } } }, (request) =>
      messages.remove(actorOf(request), request.params.id),
    );

    secured.post(
      "/messages/:id/retry",
      {
        schema: {
          tags,
          description: "Send again a message WhatsApp refused (ack -1); it goes back to the outbox.",
          params: idParamsSchema,
          response: { 200: messageSchema },
        },
      },
      (request) => messages.retry(actorOf(request), request.params.id),
    );

    secured.get("/messages/:id/media", { schema: { tags, params: idParamsSchema } }, async (request, reply) =>
      sendMediaFile(reply, await messages.media(actorOf(request), request.params.id), "private, max-age=3600"),
    );
  });

  // The Whaticket-compatible API: authorised by the userApiToken setting, nothing else.
  app.post(
    "/messages/send",
    {
      schema: {
        tags,
        description:
          "Bearer userApiToken. JSON `{ number, body }` or multipart with `medias` files (each streamed to storage " +
          "as it arrives, at most 16 MiB: 413 ERR_PAYLOAD_TOO_LARGE past it, and nothing of the request is kept).",
        response: { 201: z.object({ message: messageSchema, ticketId: z.number() }) },
      },
      // Its files go to storage as they arrive, never held in memory: no room of the upload budget is taken.
      config: { streamsUploads: true },
    },
    async (request, reply) => {
      await services.apiSend.authorize(request.headers.authorization, request.ip);
      const input = await readApiSendBody(request, services.storage);
      const result = await messages.withStored(input.medias, (medias) =>
        services.apiSend.send({ number: input.number, body: input.body }, medias),
      );
      return reply.status(201).send(result);
    },
  );
};
