import {
  can,
  deletedSchema,
  simulatorAckSchema,
  simulatorCallSchema,
  simulatorEditSchema,
  simulatorIdentitySchema,
  simulatorIdResultSchema,
  simulatorInboundSchema,
  simulatorMessageRefSchema,
  simulatorOutboundListSchema,
  simulatorOutboundQuerySchema,
  simulatorParamsSchema,
  simulatorReactionSchema,
} from "@zapdesk/core";
import type { onRequestHookHandler } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf } from "../../http/auth.js";
import { AppError } from "../../lib/app-error.js";
import type { SessionManager } from "../session-manager.js";
import type { SimulatorHub } from "./simulator-hub.js";

export interface SimulatorRoutesOptions {
  authenticate: onRequestHookHandler;
  hub: SimulatorHub;
  sessions: SessionManager;
}

// Base64 inflates media by a third; this leaves room for a 16 MB file.
const INBOUND_BODY_LIMIT = 24 * 1024 * 1024;

/** The customers' side of simulator connections (design §5): admin only, for people and tests. */
export const simulatorRoutes: FastifyPluginAsyncZod<SimulatorRoutesOptions> = async (app, { authenticate, hub, sessions }) => {
  app.addHook("onRequest", authenticate);
  // Checked before the body is validated, so that a non-admin learns nothing about the contract.
  app.addHook("onRequest", async (request) => {
    if (!can(actorOf(request), "simulator:use")) throw new AppError("ERR_NO_PERMISSION");
  });
  const tags = ["simulator"];
  const params = simulatorParamsSchema;
  const ok = { 200: deletedSchema };

  const connected = (whatsappId: number) => {
    if (sessions.provider(whatsappId) !== "simulator") throw new AppError("ERR_NO_WAPP_FOUND");
    if (!sessions.isConnected(whatsappId)) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    return whatsappId;
  };

  app.post(
    "/simulator/:whatsappId/inbound",
    {
      bodyLimit: INBOUND_BODY_LIMIT,
      // A customer's message writes contacts, tickets and messages, never a user: the signed-in
      // users' cache needs no write probe after it (session-users.ts), as a channel's webhook sends none.
      config: { changesNoUser: true },
      schema: { tags, params, body: simulatorInboundSchema, response: { 200: simulatorIdResultSchema } },
    },
    (request) => hub.inbound(connected(request.params.whatsappId), request.body),
  );

  app.post(
    "/simulator/:whatsappId/ack",
    { schema: { tags, params, body: simulatorAckSchema, response: ok } },
    async (request) => {
      await hub.ack(connected(request.params.whatsappId), request.body);
      return { message: "Ack delivered" };
    },
  );

  app.post(
    "/simulator/:whatsappId/revoke",
    { schema: { tags, params, body: simulatorMessageRefSchema, response: ok } },
    async (request) => {
      await hub.revoke(connected(request.params.whatsappId), request.body);
      return { message: "Message revoked" };
    },
  );

  app.post(
    "/simulator/:whatsappId/edit",
    { schema: { tags, params, body: simulatorEditSchema, response: ok } },
    async (request) => {
      await hub.edit(connected(request.params.whatsappId), request.body);
      return { message: "Message edited" };
    },
  );

  app.post(
    "/simulator/:whatsappId/call",
    { schema: { tags, params, body: simulatorCallSchema, response: { 200: z.object({ callId: z.string() }) } } },
    (request) => hub.call(connected(request.params.whatsappId), request.body),
  );

  app.post(
    "/simulator/:whatsappId/reaction",
    { schema: { tags, params, body: simulatorReactionSchema, response: ok } },
    async (request) => {
      await hub.react(connected(request.params.whatsappId), request.body);
      return { message: "Reaction delivered" };
    },
  );

  app.post(
    "/simulator/:whatsappId/identity",
    { schema: { tags, params, body: simulatorIdentitySchema, response: ok } },
    async (request) => {
      await hub.identity(connected(request.params.whatsappId), request.body);
      return { message: "Identity revealed" };
    },
  );

  app.post("/simulator/:whatsappId/disconnect", { schema: { tags, params, response: ok } }, async (request) => {
    hub.disconnect(connected(request.params.whatsappId));
    return { message: "Connection dropped" };
  });

  app.get(
    "/simulator/:whatsappId/outbound",
    { schema: { tags, params, querystring: simulatorOutboundQuerySchema, response: { 200: simulatorOutboundListSchema } } },
    (request) => {
      const whatsappId = request.params.whatsappId;
      if (sessions.provider(whatsappId) !== "simulator") throw new AppError("ERR_NO_WAPP_FOUND");
      return { messages: hub.outbound(whatsappId, request.query.to) };
    },
  );
};
