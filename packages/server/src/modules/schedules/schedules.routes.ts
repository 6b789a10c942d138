import {
  idParamsSchema,
  scheduleCreateSchema,
  scheduleListQuerySchema,
  scheduleListSchema,
  scheduleSchema,
  scheduleUpdateSchema,
} from "@zapdesk/core";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { z } from "zod";
import { actorOf } from "../../http/auth.js";
import { AppError } from "../../lib/app-error.js";
import type { RouteContext } from "../../services.js";
import { readFilePart } from "../messages/uploads.js";
import type { ScheduleFile } from "./schedules.service.js";

function validationError(issues: { path: PropertyKey[]; message: string }[]): AppError {
  return new AppError("ERR_VALIDATION", {
    details: issues.map((i) => ({ path: i.path.map((p) => (typeof p === "number" ? p : String(p))), message: i.message })),
  });
}

const NUMERIC_FIELDS = new Set(["ticketId", "contactId", "whatsappId"]);

/** Multipart: the JSON fields as text (ids as digits, `removeMedia` as "true") and at most one `media` file. */
async function readMultipart(request: FastifyRequest) {
  const fields: Record<string, unknown> = {};
  let file: ScheduleFile | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === "file") {
        if ((part.fieldname !== "media" && part.fieldname !== "medias") || file) {
          await part.toBuffer();
          throw validationError([{ path: [part.fieldname], message: "Unexpected file field" }]);
        }
        file = { data: await readFilePart(part), filename: part.filename, mimetype: part.mimetype };
      } else {
        const value = String(part.value ?? "");
        if (NUMERIC_FIELDS.has(part.fieldname)) fields[part.fieldname] = /^\d{1,10}$/.test(value) ? Number(value) : value;
        else if (part.fieldname === "removeMedia") fields[part.fieldname] = value === "true";
        else fields[part.fieldname] = value;
      }
    }
  } catch (error) {
    if (error instanceof AppError || (error as { statusCode?: number }).statusCode) throw error;
    throw new AppError("ERR_VALIDATION", { message: "Malformed multipart body" });
  }
  return { fields, file };
}

async function readBody<S extends z.ZodType>(request: FastifyRequest, schema: S) {
  const { fields, file } = request.isMultipart() ? await readMultipart(request) : { fields: request.body ?? {}, file: undefined };
  const parsed = schema.safeParse(fields);
  if (!parsed.success) throw validationError(parsed.error.issues);
  return { input: parsed.data as z.output<S>, file };
}

const BODY_NOTE =
  "JSON, or multipart with the same fields and one `media` file (the attachment, stored now and sent at `sendAt`).";

export const scheduleRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate }) => {
  app.addHook("onRequest", authenticate);
  const tags = ["schedules"];
  const { schedules } = services;

  app.get(
    "/schedules",
    {
      schema: {
        tags,
        description: "Scheduled messages the user may see (agents: of tickets they reach, and their own), pending first.",
        querystring: scheduleListQuerySchema,
        response: { 200: scheduleListSchema },
      },
    },
    (request) => schedules.list(actorOf(request), request.query),
  );

  app.get("/schedules/:id", { schema: { tags, params: idParamsSchema, response: { 200: scheduleSchema } } }, (request) =>
    schedules.get(actorOf(request), request.params.id),
  );

  app.post(
    "/schedules",
    {
      schema: {
        tags,
        description: `Schedule a message in a ticket (\`ticketId\`) or to a contact (\`contactId\`, \`whatsappId?\`). ${BODY_NOTE}`,
        body: scheduleCreateSchema.nullish(),
        response: { 201: scheduleSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const { input, file } = await readBody(request, scheduleCreateSchema);
      return reply.status(201).send(await schedules.create(actor, input, file));
    },
  );

  app.put(
    "/schedules/:id",
    {
      schema: {
        tags,
        description: `Change the body, time or attachment while still \`scheduled\` (else 409 ERR_SCHEDULE_NOT_EDITABLE). ${BODY_NOTE}`,
        params: idParamsSchema,
        body: scheduleUpdateSchema.nullish(),
        response: { 200: scheduleSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      // Refused (not found, not the author, already sent) before a byte of an upload is read.
      if (request.isMultipart()) await schedules.editable(actor, request.params.id);
      const { input, file } = await readBody(request, scheduleUpdateSchema);
      return schedules.update(actor, request.params.id, input, file);
    },
  );

  app.delete(
    "/schedules/:id",
    {
      schema: {
        tags,
        description: "Cancel: the schedule stays, with status `cancelled` (409 once sent).",
        params: idParamsSchema,
        response: { 200: scheduleSchema },
      },
    },
    (request) => schedules.cancel(actorOf(request), request.params.id),
  );
};
