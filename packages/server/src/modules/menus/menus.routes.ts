import { idParamsSchema, menuMediaSchema, menuPutSchema, menuResponseSchema } from "@zapdesk/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf, requirePermission } from "../../http/auth.js";
import { AppError } from "../../lib/app-error.js";
import type { RouteContext } from "../../services.js";
import { streamFilePart } from "../messages/uploads.js";

/** Issue 23 §3: a connection's menu tree (docs/menus.md), for whoever manages connections. */
export const menuRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate }) => {
  app.addHook("onRequest", authenticate);
  const tags = ["connections"];
  const admin = { onRequest: requirePermission("connections:manage") };

  app.get(
    "/whatsapp/:id/menu",
    { ...admin, schema: { tags, params: idParamsSchema, response: { 200: menuResponseSchema } } },
    (request) => services.menus.get(actorOf(request), request.params.id),
  );
  app.put(
    "/whatsapp/:id/menu",
    {
      ...admin,
      schema: {
        tags,
        description:
          "Replace the connection's menu tree (`menu: null` goes back to the one-level menu of its queues). " +
          "At most 5 levels (400 ERR_MENU_TOO_DEEP) and 20 options a level (400 ERR_MENU_TOO_MANY_OPTIONS).",
        params: idParamsSchema,
        body: menuPutSchema,
        response: { 200: menuResponseSchema },
      },
    },
    (request) => services.menus.put(actorOf(request), request.params.id, request.body.menu),
  );
  app.post(
    "/whatsapp/:id/menu/media",
    {
      ...admin,
      schema: {
        tags,
        description: "Multipart with one `media` file: stored, and named by the answer for an option's `media`.",
        params: idParamsSchema,
        response: { 200: menuMediaSchema },
      },
    },
    async (request) => {
      await services.menus.get(actorOf(request), request.params.id);
      const part = await request.file();
      if (!part) throw new AppError("ERR_VALIDATION", { details: [{ path: ["media"], message: "Required" }] });
      const stored = await streamFilePart(services.storage, part);
      return { path: stored.path, name: stored.name, mime: stored.mime };
    },
  );
};
