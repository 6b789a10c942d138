import {
  connectionInputSchema,
  connectionSchema,
  connectionUpdateSchema,
  deletedSchema,
  idParamsSchema,
  newSessionSchema,
} from "@zapdesk/core";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, requirePermission } from "../../http/auth.js";
import type { RouteContext } from "../../services.js";

const ok = z.object({ message: z.string() });

/** The origin the admin reached us at: webhook URLs shown without PUBLIC_URL are built on it. */
const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

export const connectionRoutes: FastifyPluginAsyncZod<RouteContext> = async (app, { services, authenticate }) => {
  app.addHook("onRequest", authenticate);
  const tags = ["connections"];
  const { connections } = services;
  const admin = { onRequest: requirePermission("connections:manage") };

  app.get("/whatsapp", { schema: { tags, response: { 200: z.array(connectionSchema) } } }, (request) =>
    connections.list(actorOf(request), originOf(request)),
  );
  app.get("/whatsapp/:id", { schema: { tags, params: idParamsSchema, response: { 200: connectionSchema } } }, (request) =>
    connections.get(actorOf(request), request.params.id, originOf(request)),
  );
  app.post(
    "/whatsapp",
    { ...admin, schema: { tags, body: connectionInputSchema, response: { 200: connectionSchema } } },
    (request) => connections.create(actorOf(request), request.body, originOf(request)),
  );
  app.put(
    "/whatsapp/:id",
    { ...admin, schema: { tags, params: idParamsSchema, body: connectionUpdateSchema, response: { 200: connectionSchema } } },
    (request) => connections.update(actorOf(request), request.params.id, request.body, originOf(request)),
  );
  app.delete(
    "/whatsapp/:id",
    { ...admin, schema: { tags, params: idParamsSchema, response: { 200: deletedSchema } } },
    async (request) => {
      await connections.remove(actorOf(request), request.params.id);
      return { message: "Connection deleted" };
    },
  );

  app.post(
    "/whatsappsession/:id",
    { ...admin, schema: { tags, params: idParamsSchema, response: { 200: ok } } },
    async (request) => {
      await connections.startSession(actorOf(request), request.params.id);
      return { message: "Starting session" };
    },
  );
  app.put(
    "/whatsappsession/:id",
    {
      ...admin,
      schema: {
        tags,
        description: "Pair again: a new QR code, or with `{ pairingPhone }` a code to type on that phone.",
        params: idParamsSchema,
        body: newSessionSchema,
        response: { 200: ok },
      },
    },
    async (request) => {
      await connections.newQrCode(actorOf(request), request.params.id, request.body);
      return { message: "Requesting a new QR code" };
    },
  );
  app.delete(
    "/whatsappsession/:id",
    { ...admin, schema: { tags, params: idParamsSchema, response: { 200: ok } } },
    async (request) => {
      await connections.disconnect(actorOf(request), request.params.id);
      return { message: "Session disconnected" };
    },
  );

  app.get("/whatsappzdg", { schema: { tags, response: { 200: z.object({ id: z.number() }) } } }, async () => ({
    id: await connections.defaultConnectedId(),
  }));
};
