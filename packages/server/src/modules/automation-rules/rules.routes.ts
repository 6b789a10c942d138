import {
  deletedSchema,
  idParamsSchema,
  ruleDryRunInputSchema,
  ruleDryRunSchema,
  ruleEnableSchema,
  ruleInputSchema,
  ruleListSchema,
  ruleLogParamsSchema,
  ruleLogQuerySchema,
  ruleLogSchema,
  ruleSchema,
  ruleUpdateSchema,
} from "@zapdesk/core";
import type { onRequestHookHandler } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf, requirePermission } from "../../http/auth.js";
import type { RuleService } from "./rules.service.js";

/** Issue 23 §1: automation rules, their log and the dry run (admins: `rules:manage`). */
export const automationRuleRoutes: FastifyPluginAsyncZod<{ authenticate: onRequestHookHandler; rules: RuleService }> = async (
  app,
  { authenticate, rules },
) => {
  app.addHook("onRequest", authenticate);
  app.addHook("onRequest", requirePermission("rules:manage"));
  const tags = ["automation-rules"];

  app.get("/automation-rules", { schema: { tags, response: { 200: ruleListSchema } } }, () => rules.list());
  app.post(
    "/automation-rules",
    {
      schema: {
        tags,
        description:
          "A rule: when (`trigger`), if (`conditions`, all must hold), then (`actions`, the macros' list). Its actions run as the " +
          "admin who saved it. `matches` conditions take a safe regular expression (no nested repetition, back-references or look-arounds).",
        body: ruleInputSchema,
        response: { 200: ruleSchema },
      },
    },
    (request) => rules.create(actorOf(request), request.body),
  );
  app.post(
    "/automation-rules/dry-run",
    {
      schema: {
        tags,
        description:
          "Evaluates a rule definition (saved or not) over the last 7 days of real events and answers, ticket by ticket, what it " +
          "would have done. Writes nothing.",
        body: ruleDryRunInputSchema,
        response: { 200: ruleDryRunSchema },
      },
    },
    (request) => rules.dryRun(request.body),
  );
  app.get("/automation-rules/:id", { schema: { tags, params: idParamsSchema, response: { 200: ruleSchema } } }, (request) =>
    rules.get(request.params.id),
  );
  app.put(
    "/automation-rules/:id",
    { schema: { tags, params: idParamsSchema, body: ruleUpdateSchema, response: { 200: ruleSchema } } },
    (request) => rules.update(actorOf(request), request.params.id, request.body),
  );
  app.post(
    "/automation-rules/:id/enable",
    {
      schema: {
        tags,
        description: "`{ enabled }`: turn the rule on or off.",
        params: idParamsSchema,
        body: ruleEnableSchema,
        response: { 200: ruleSchema },
      },
    },
    (request) => rules.update(actorOf(request), request.params.id, { enabled: request.body.enabled }),
  );
  app.get(
    "/automation-rules/:id/log",
    {
      schema: {
        tags,
        description:
          "The rule's execution log, newest first, 20 a page: each event it saw, and what it did (`done`, with each action's result) " +
          "or why it stopped (`condition`: the failing condition's index; `rateLimited`; `refused`: the action's error code).",
        params: ruleLogParamsSchema,
        querystring: ruleLogQuerySchema,
        response: { 200: ruleLogSchema },
      },
    },
    (request) => rules.log(request.params.id, request.query),
  );
  app.delete(
    "/automation-rules/:id",
    { schema: { tags, params: idParamsSchema, response: { 200: deletedSchema } } },
    async (request) => {
      await rules.remove(request.params.id);
      return { message: "Rule deleted" };
    },
  );
};
