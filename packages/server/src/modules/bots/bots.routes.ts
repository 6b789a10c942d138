import {
  botConfigInputSchema,
  botConfigOrNullSchema,
  botConfigSchema,
  botHandoverResultSchema,
  botMessageInputSchema,
  deletedSchema,
  handoverInputSchema,
  idParamsSchema,
  type Message,
  messageSchema,
} from "@zapdesk/core";
import type { onRequestHookHandler } from "fastify";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { actorOf } from "../../http/auth.js";
import type { BotService } from "./bots.service.js";

export interface BotRouteDeps {
  authenticate: onRequestHookHandler;
  bots: BotService;
  /** The API token's check (userApiToken, as POST /messages/send). */
  authorizeToken(header: string | undefined, ip: string): Promise<void>;
  presentMessage(id: number): Promise<Message>;
}

/** Issue 23 §4: a queue's bot (admins' queue form) and the webhook bot's answers through the API token. */
export const botRoutes: FastifyPluginAsyncZod<BotRouteDeps> = async (app, deps) => {
  const { bots } = deps;

  app.register(async (plugin) => {
    const api = plugin.withTypeProvider<ZodTypeProvider>();
    const tags = ["bots"];
    api.post(
      "/tickets/:id/bot/handover",
      {
        schema: {
          tags,
          description:
            "Bearer userApiToken. The bot holding the ticket hands it over: `{ to: 'queue', queueId? }` (its queue by default), " +
            "`{ to: 'agent', userId }` or `{ to: 'close' }`. 409 ERR_BOT_NOT_HOLDING when no bot holds it.",
          params: idParamsSchema,
          body: handoverInputSchema,
          response: { 200: botHandoverResultSchema },
        },
      },
      async (request) => {
        await deps.authorizeToken(request.headers.authorization, request.ip);
        return bots.handover(request.params.id, request.body);
      },
    );
    api.post(
      "/tickets/:id/bot/messages",
      {
        schema: {
          tags,
          description: "Bearer userApiToken. The bot's answer to the customer, sent as the bot's while it holds the ticket.",
          params: idParamsSchema,
          body: botMessageInputSchema,
          response: { 200: messageSchema },
        },
      },
      async (request) => {
        await deps.authorizeToken(request.headers.authorization, request.ip);
        return deps.presentMessage(await bots.send(request.params.id, request.body.body));
      },
    );
  });

  app.register(async (plugin) => {
    const secured = plugin.withTypeProvider<ZodTypeProvider>();
    secured.addHook("onRequest", deps.authenticate);
    const tags = ["queues"];
    secured.get(
      "/queue/:id/bot",
      {
        schema: {
          tags,
          description: "The queue's bot, or null.",
          params: idParamsSchema,
          response: { 200: botConfigOrNullSchema },
        },
      },
      (request) => bots.get(actorOf(request), request.params.id),
    );
    secured.put(
      "/queue/:id/bot",
      {
        schema: {
          tags,
          description:
            "Sets the queue's bot (Typebot or a webhook). The Typebot API token is never sent back (`apiToken: set|not set`); " +
            "a new webhook bot's signing secret is in this answer only.",
          params: idParamsSchema,
          body: botConfigInputSchema,
          response: { 200: botConfigSchema },
        },
      },
      (request) => bots.save(actorOf(request), request.params.id, request.body),
    );
    secured.delete(
      "/queue/:id/bot",
      {
        schema: {
          tags,
          description: "Removes the queue's bot; the tickets it held go to the queue's waiting list.",
          params: idParamsSchema,
          response: { 200: deletedSchema },
        },
      },
      async (request) => {
        await bots.remove(actorOf(request), request.params.id);
        return { message: "Bot deleted" };
      },
    );
  });
};
