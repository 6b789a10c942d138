import {
  idParamsSchema,
  legalHoldInputSchema,
  legalHoldQuerySchema,
  legalHoldSchema,
  retentionCountsSchema,
  retentionOverviewSchema,
  retentionPolicySchema,
  retentionQueueParamsSchema,
} from "@zapdesk/core";
import type { onRequestHookHandler } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, requirePermission } from "../../http/auth.js";
import type { RetentionService } from "./retention.service.js";

export interface RetentionRouteOptions {
  authenticate: onRequestHookHandler;
  retention: RetentionService;
}

/** Issue 22 §1: retention policies, their preview, the sweep and legal holds (admins: `retention:manage`). */
export const retentionRoutes: FastifyPluginAsyncZod<RetentionRouteOptions> = async (app, { authenticate, retention }) => {
  const tags = ["retention"];
  app.addHook("onRequest", authenticate);
  app.addHook("onRequest", requirePermission("retention:manage"));

  app.get(
    "/retention",
    {
      schema: {
        tags,
        description: "The default retention policy, every queue's own one, and the last sweep that removed anything.",
        response: { 200: retentionOverviewSchema },
      },
    },
    () => retention.overview(),
  );

  app.put(
    "/retention/policies",
    {
      schema: {
        tags,
        description: "Save the default policy (queueId null) or a queue's own one. Audited.",
        body: retentionPolicySchema,
        response: { 200: retentionPolicySchema },
      },
    },
    (request) => retention.savePolicy(request.body),
  );

  app.delete(
    "/retention/policies/:queueId",
    {
      schema: {
        tags,
        description: "The queue goes back to the default policy. Audited.",
        params: retentionQueueParamsSchema,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      await retention.resetPolicy(request.params.queueId);
      return { message: "Policy removed" };
    },
  );

  app.post(
    "/retention/preview",
    {
      schema: {
        tags,
        description: "What this policy would remove if it ran today (nothing is saved or removed).",
        body: retentionPolicySchema,
        response: { 200: retentionCountsSchema },
      },
    },
    (request) => retention.preview(request.body),
  );

  app.post(
    "/retention/run",
    {
      schema: {
        tags,
        description: "Run the sweep now (it also runs every hour). 409 ERR_RETENTION_RUNNING while one runs here.",
        response: { 200: retentionCountsSchema },
      },
    },
    (request) => {
      const actor = actorOf(request);
      return retention.run({ userId: actor.id, name: actor.name, email: actor.email });
    },
  );

  app.get(
    "/legal-holds",
    {
      schema: {
        tags,
        description: "Legal holds, of one contact or ticket when asked.",
        querystring: legalHoldQuerySchema,
        response: { 200: z.object({ holds: z.array(legalHoldSchema) }) },
      },
    },
    async (request) => ({ holds: await retention.holds(request.query) }),
  );

  app.post(
    "/legal-holds",
    {
      schema: {
        tags,
        description: "Place a legal hold on a contact or a ticket: no retention policy removes anything of it. Audited.",
        body: legalHoldInputSchema,
        response: { 201: legalHoldSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      return reply.status(201).send(await retention.placeHold(request.body, { id: actor.id, name: actor.name }));
    },
  );

  app.delete(
    "/legal-holds/:id",
    {
      schema: {
        tags,
        description: "Release a legal hold. Audited.",
        params: idParamsSchema,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      await retention.releaseHold(Number(request.params.id));
      return { message: "Legal hold released" };
    },
  );
};
