import {
  deletedSchema,
  idParamsSchema,
  macroInputSchema,
  macroListSchema,
  macroRunParamsSchema,
  macroRunResultSchema,
  macroSchema,
  macroUpdateSchema,
} from "@zapdesk/core";
import type { onRequestHookHandler } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf } from "../../http/auth.js";
import type { MacroService } from "./macros.service.js";

/** Issue 23 §2: macros (personal and shared) and running one on a ticket. */
export const macroRoutes: FastifyPluginAsyncZod<{ authenticate: onRequestHookHandler; macros: MacroService }> = async (
  app,
  { authenticate, macros },
) => {
  app.addHook("onRequest", authenticate);
  const tags = ["macros"];

  app.get(
    "/macros",
    { schema: { tags, description: "The shared macros and the signed-in user's own.", response: { 200: macroListSchema } } },
    (request) => macros.list(actorOf(request)),
  );
  app.post(
    "/macros",
    {
      schema: {
        tags,
        description:
          "`shared: true` needs macros:manage. What the actions name (queue, user, tag, template, reason, webhook) must exist.",
        body: macroInputSchema,
        response: { 200: macroSchema },
      },
    },
    (request) => macros.create(actorOf(request), request.body),
  );
  app.put(
    "/macros/:id",
    {
      schema: {
        tags,
        description: "One's own macro, or a shared one with macros:manage (also to share or unshare).",
        params: idParamsSchema,
        body: macroUpdateSchema,
        response: { 200: macroSchema },
      },
    },
    (request) => macros.update(actorOf(request), request.params.id, request.body),
  );
  app.delete("/macros/:id", { schema: { tags, params: idParamsSchema, response: { 200: deletedSchema } } }, async (request) => {
    await macros.remove(actorOf(request), request.params.id);
    return { message: "Macro deleted" };
  });
  app.post(
    "/tickets/:id/macros/:macroId/run",
    {
      schema: {
        tags: ["macros", "tickets"],
        description:
          "Runs the macro's actions on the ticket, in order, as the signed-in user, all or nothing: the answer says what each did; " +
          "the first refusal answers its own error (details[0].path = ['actions', index]) with nothing applied.",
        params: macroRunParamsSchema,
        response: { 200: macroRunResultSchema },
      },
    },
    (request) => macros.run(actorOf(request), request.params.id, request.params.macroId),
  );
};
