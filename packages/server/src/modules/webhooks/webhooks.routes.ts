import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply } from "fastify";
import { type CloudDeps, loadCloudAccount } from "../../channels/cloud/cloud-account.js";
import type { CloudWebhooks } from "../../channels/cloud/cloud-webhooks.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import { createChannelStore } from "../connections/channel-store.js";
import { hubSignature, sameSecret } from "./webhook-signature.js";

export interface WebhookRouteOptions {
  db: Db;
  webhooks: CloudWebhooks;
  openSecret: CloudDeps["openSecret"];
  logger: FastifyBaseLogger;
}

/** Meta batches up to 1000 updates in a delivery; this leaves room for that and refuses more. */
export const WEBHOOK_BODY_LIMIT = 4 * 1024 * 1024;

/** A connection id from the path; anything else is simply not a connection. */
function connectionId(raw: string): number {
  const id = /^\d{1,10}$/.test(raw) ? Number(raw) : 0;
  if (id < 1 || id > 2147483647) throw new AppError("ERR_NO_WAPP_FOUND");
  return id;
}

function answerText(reply: FastifyReply, text: string) {
  return reply.status(200).type("text/plain; charset=utf-8").header("Cache-Control", "no-store").send(text);
}

/**
 * Meta's webhook for Cloud API connections (public: Meta authenticates with the verify token on
 * the handshake and with an HMAC of the raw body on every delivery). Any process answers: the
 * delivery is stored before the 200, then processed here, or by the sweeper of any process.
 */
export const webhookRoutes: FastifyPluginAsync<WebhookRouteOptions> = async (app, options) => {
  const { db, webhooks, logger } = options;
  const store = createChannelStore(db);

  // The signature covers the exact bytes Meta sent: keep them instead of parsing.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => {
    done(null, body);
  });

  async function account(rawId: string) {
    const found = await loadCloudAccount(store, connectionId(rawId), options.openSecret).catch((error) => {
      if (error instanceof AppError) throw error;
      // Secrets that cannot be opened (ENCRYPTION_KEY changed): nothing can be verified.
      logger.error({ err: error }, "cannot open a Cloud API connection's secrets");
      return undefined;
    });
    if (!found) throw new AppError("ERR_NO_WAPP_FOUND");
    return found;
  }

  app.get<{ Params: { connectionId: string }; Querystring: Record<string, string | string[] | undefined> }>(
    "/webhooks/whatsapp/:connectionId",
    { schema: { hide: true } },
    async (request, reply) => {
      const cloud = await account(request.params.connectionId);
      const one = (key: string) => {
        const value = request.query[key];
        return typeof value === "string" ? value : "";
      };
      if (one("hub.mode") !== "subscribe" || !cloud.verifyToken || !sameSecret(one("hub.verify_token"), cloud.verifyToken)) {
        throw new AppError("ERR_WEBHOOK_VERIFY_TOKEN");
      }
      return answerText(reply, one("hub.challenge"));
    },
  );

  app.post<{ Params: { connectionId: string } }>(
    "/webhooks/whatsapp/:connectionId",
    { schema: { hide: true }, bodyLimit: WEBHOOK_BODY_LIMIT },
    async (request, reply) => {
      const cloud = await account(request.params.connectionId);
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const given = request.headers["x-hub-signature-256"];
      if (typeof given !== "string" || !cloud.appSecret || !sameSecret(given, hubSignature(raw, cloud.appSecret))) {
        throw new AppError("ERR_WEBHOOK_SIGNATURE");
      }
      let payload: unknown;
      try {
        payload = JSON.parse(raw.toString("utf8"));
      } catch {
        payload = undefined;
      }
      if (!payload || typeof payload !== "object") {
        throw new AppError("ERR_VALIDATION", { message: "The webhook body is not a JSON object" });
      }
      const eventId = await webhooks.record(cloud.whatsappId, raw, payload);
      // Answer first: Meta retries slow answers. Processing follows here; the sweeper catches up on a crash.
      if (eventId !== undefined) {
        setImmediate(() => {
          void webhooks.process({ id: eventId, whatsappId: cloud.whatsappId, payload });
        });
      }
      return answerText(reply, "EVENT_RECEIVED");
    },
  );
};
