import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import cookie from "@fastify/cookie";
import helmet from "@fastify/helmet";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyInstance } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { Redis } from "ioredis";
import type { Config } from "./config.js";
import type { Database } from "./db/client.js";
import { createAuthenticate } from "./http/auth.js";
import { registerErrorHandler } from "./http/error-handler.js";
import { registerOpenApi } from "./http/openapi.js";
import type { RouteContext, Services } from "./http/route-context.js";
import { type Clock, systemClock } from "./lib/clock.js";
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from "./lib/rate-limiter.js";
import { authRoutes } from "./modules/auth/auth.routes.js";
import { createAuthService } from "./modules/auth/auth.service.js";
import { createTokenService } from "./modules/auth/tokens.js";
import { contactRoutes } from "./modules/contacts/contacts.routes.js";
import { createContactService } from "./modules/contacts/contacts.service.js";
import { healthRoutes } from "./modules/health/health.routes.js";
import { queueRoutes } from "./modules/queues/queues.routes.js";
import { createQueueService } from "./modules/queues/queues.service.js";
import { quickAnswerRoutes } from "./modules/quick-answers/quick-answers.routes.js";
import { createQuickAnswerService } from "./modules/quick-answers/quick-answers.service.js";
import { settingRoutes } from "./modules/settings/settings.routes.js";
import { createSettingService } from "./modules/settings/settings.service.js";
import { userRoutes } from "./modules/users/users.routes.js";
import { createUserService } from "./modules/users/users.service.js";
import { createRealtime, type Realtime } from "./realtime/server.js";

export interface BuildAppOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  /** Override the access-token lifetime (tests of expiry). */
  accessTtlSeconds?: number;
  logger?: boolean;
}

export interface AppHandle {
  app: FastifyInstance;
  services: Services;
  realtime: Realtime;
}

const DEFAULT_WEB_DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../../web/dist");

export async function buildApp(options: BuildAppOptions): Promise<AppHandle> {
  const { config, database } = options;
  const clock = options.clock ?? systemClock;
  const db = database.db;

  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel },
    bodyLimit: 1024 * 1024,
    trustProxy: true,
    requestIdHeader: "x-request-id",
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 3 }) : undefined;
  redis?.on("error", (error) => app.log.warn({ err: error }, "redis error"));
  const limiter = (name: string, max: number): RateLimiter =>
    redis
      ? createRedisRateLimiter(redis, { windowMs: config.rateLimit.windowMs, max, prefix: `zapdesk:rl:${name}` })
      : createMemoryRateLimiter({ windowMs: config.rateLimit.windowMs, max });

  const tokens = createTokenService({
    db,
    clock,
    accessSecret: config.jwtSecret,
    refreshSecret: config.jwtRefreshSecret,
    accessTtlSeconds: options.accessTtlSeconds,
  });
  const realtime = createRealtime({ httpServer: app.server, db, tokens, logger: app.log, redisUrl: config.redisUrl });
  const events = realtime;

  const services: Services = {
    tokens,
    auth: createAuthService({
      db,
      tokens,
      events,
      limiters: { ip: limiter("ip", config.rateLimit.perIp), email: limiter("email", config.rateLimit.perEmail) },
    }),
    users: createUserService({ db, events, tokens }),
    queues: createQueueService({ db, events }),
    contacts: createContactService({ db, events }),
    quickAnswers: createQuickAnswerService({ db, events }),
    settings: createSettingService({ db, events }),
  };

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", "data:", "blob:", "https:"],
        mediaSrc: ["'self'", "blob:", "data:"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'", "ws:", "wss:"],
        frameSrc: ["https:", "http:"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(cookie);
  await registerOpenApi(app);

  const context: RouteContext = { config, services, authenticate: createAuthenticate({ db, tokens }) };
  await app.register(
    async (api) => {
      await api.register(healthRoutes, { database });
      for (const routes of [authRoutes, userRoutes, queueRoutes, contactRoutes, quickAnswerRoutes, settingRoutes]) {
        await api.register(routes, context);
      }
    },
    { prefix: "/api" },
  );

  await registerWeb(app, config.webDist ?? DEFAULT_WEB_DIST);

  app.addHook("preClose", async () => {
    await realtime.close();
  });
  app.addHook("onClose", async () => {
    await redis?.quit().catch(() => redis.disconnect());
  });

  return { app, services, realtime };
}

/** The SPA at `/` with history fallback; anything under /api that matched nothing is a JSON 404. */
async function registerWeb(app: FastifyInstance, webDist: string) {
  const hasWeb = existsSync(join(webDist, "index.html"));
  if (hasWeb) await app.register(fastifyStatic, { root: webDist, wildcard: false, index: ["index.html"] });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0];
    if (path.startsWith("/api") || path.startsWith("/socket.io") || request.method !== "GET" || !hasWeb) {
      return reply.status(404).send({ error: "ERR_NOT_FOUND", message: "Not found" });
    }
    return reply.type("text/html").sendFile("index.html");
  });
}
