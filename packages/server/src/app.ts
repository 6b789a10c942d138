import { join } from "node:path";
import cookie from "@fastify/cookie";
import multipart from "@fastify/multipart";
import Fastify, { type FastifyInstance } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { registerApiRoutes } from "./api-routes.js";
import type { ChannelFactories } from "./channels/channel.js";
import type { CloudWebhooks } from "./channels/cloud/cloud-webhooks.js";
import type { SessionManager } from "./channels/session-manager.js";
import type { SimulatorHub, SimulatorHubOptions } from "./channels/simulator/simulator-hub.js";
import type { Config } from "./config.js";
import { createConversations } from "./conversations.js";
import type { Database } from "./db/client.js";
import { createAuthenticate } from "./http/auth.js";
import { createOutageMonitor } from "./http/database-outage.js";
import { frameworkErrorHandler, registerErrorHandler } from "./http/error-handler.js";
import { registerOpenApi } from "./http/openapi.js";
import { QuietRequestLog } from "./http/request-log.js";
import { registerSecurityHeaders } from "./http/security-headers.js";
import { trustProxyOption } from "./http/trust-proxy.js";
import { createUploadBudget, registerUploadBudget, type UploadBudget } from "./http/upload-budget.js";
import { clientErrorHandler, MAX_PARAM_LENGTH, rejectLongUrls } from "./http/url-limits.js";
import { registerWeb } from "./http/web-app.js";
import type { MediaRetry } from "./jobs/media-retry.js";
import type { OutboxWorker } from "./jobs/outbox-worker.js";
import { type Clock, systemClock } from "./lib/clock.js";
import { createHeavyReadGate } from "./lib/heavy-reads.js";
import { createLimiters } from "./lib/limiters.js";
import type { FailurePolicy } from "./lib/rate-limiter.js";
import { createSecretBox } from "./lib/secret-box.js";
import { createMediaLinks, type MediaLinks } from "./media/media-links.js";
import { installAuditContext } from "./modules/audit/audit.js";
import { createAuthService, loginLimiters } from "./modules/auth/auth.service.js";
import { createTokenService } from "./modules/auth/tokens.js";
import { createAutomation } from "./modules/automation/index.js";
import type { RuleWorker } from "./modules/automation-rules/rule-worker.js";
import { type BackupService, createBackupService } from "./modules/backups/backups.service.js";
import type { Bots } from "./modules/bots/index.js";
import { createApiClose } from "./modules/closing-reasons/api-close.js";
import { createClosingReasonService } from "./modules/closing-reasons/closing-reasons.service.js";
import { createClosingReport } from "./modules/closing-reasons/closing-report.js";
import { createConsentService } from "./modules/consent/consent.service.js";
import { createContactDataService } from "./modules/contact-data/contact-data.service.js";
import { createContactOwnerService } from "./modules/contact-owner/contact-owner.service.js";
import { createContactService } from "./modules/contacts/contacts.service.js";
import { createCsatDashboard } from "./modules/csat/csat.dashboard.js";
import { createMenuService } from "./modules/menus/menus.service.js";
import { API_SEND_PER_MINUTE, rateLimitApiSend } from "./modules/messages/api-send.js";
import type { InboundPipeline } from "./modules/messages/inbound.js";
import { MAX_UPLOAD_REQUEST_BYTES, UPLOAD_LIMITS } from "./modules/messages/uploads.js";
import { createNoteService } from "./modules/notes/notes.service.js";
import { createOutboundWebhooks, type OutboundWebhooks } from "./modules/outbound-webhooks/index.js";
import { createPushService } from "./modules/push/push.service.js";
import { withPush } from "./modules/push/push-publisher.js";
import { createPushSender, type PushSend } from "./modules/push/push-sender.js";
import { resolveVapid } from "./modules/push/vapid.js";
import { createQueueService } from "./modules/queues/queues.service.js";
import { createQuickAnswerService } from "./modules/quick-answers/quick-answers.service.js";
import { createRetentionService, type RetentionService } from "./modules/retention/retention.service.js";
import { createAutoAssigner } from "./modules/routing/auto-assign.js";
import { agentsSeeChoosingQueue } from "./modules/routing/choosing.js";
import { createPresenceService } from "./modules/routing/presence.service.js";
import { createSettingService } from "./modules/settings/settings.service.js";
import { createTagService } from "./modules/tags/tags.service.js";
import { createTicketExport } from "./modules/tickets/tickets-export.js";
import { createChallenges } from "./modules/two-factor/challenges.js";
import { createTwoFactorService } from "./modules/two-factor/two-factor.service.js";
import { startSessionUsers } from "./modules/users/session-users.js";
import { findAuthUser } from "./modules/users/users.repo.js";
import { createUserService } from "./modules/users/users.service.js";
import { createRealtime, type Realtime } from "./realtime/server.js";
import type { RouteContext, Services } from "./services.js";

export interface BuildAppOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  /** Override the access-token lifetime (tests of expiry). */
  accessTtlSeconds?: number;
  logger?: boolean;
  simulator?: SimulatorHubOptions;
  /** Channel factories to use instead of the real ones (tests of the Baileys adapter). */
  factories?: Partial<ChannelFactories>;
  sessionBackoff?: { initialMs: number; maxMs: number };
  outboxPollMs?: number;
  /** Issue 23 §4: the deadline of one call to a queue's bot (tests shorten it). */
  botTimeoutMs?: number;
  /** Where the log goes instead of stdout (tests that read it). */
  logStream?: { write(line: string): void };
  /** How often the database is probed during an outage (default: the Retry-After). */
  outageProbeMs?: number;
  /** The bytes of uploads read at once (tests give a small one and watch it). */
  uploadBudget?: UploadBudget;
  /** Issue 13: web push options for tests (a local fake push service over http, no retry waits, a spy). */
  push?: { allowInsecureEndpoints?: boolean; retryDelaysMs?: number[]; send?: PushSend };
}

export interface AppHandle {
  app: FastifyInstance;
  services: Services;
  realtime: Realtime;
  sessions: SessionManager;
  simulator: SimulatorHub;
  outbox: OutboxWorker;
  mediaRetry: MediaRetry;
  /** The inbound pipeline the sessions feed (tests drive it directly). */
  pipeline: InboundPipeline;
  /** Meta's webhook deliveries for Cloud API connections (tests run its sweeper). */
  cloudWebhooks: CloudWebhooks;
  /** Issue 11: outbound webhooks (tests drain its delivery worker). */
  outboundWebhooks: OutboundWebhooks;
  /** Issue 23 §1: the automation rules' worker (tests drain it). */
  ruleWorker: RuleWorker;
  /** Backups on demand and on schedule (tests run the schedule). */
  backups: BackupService;
  /** Issue 22 §1: retention policies, legal holds and the hourly sweep (tests run it). */
  retention: RetentionService;
  /** Issue 23 §4: the queues' bots (tests drain the worker and run its sweep). */
  bots: Bots;
  /** Signed links to a message's media, which the bots receive (tests sign their own). */
  mediaLinks: MediaLinks;
  /** Start the WhatsApp sessions and the outbox worker (after listen, or after ready in tests). */
  start(): Promise<void>;
}

export async function buildApp(options: BuildAppOptions): Promise<AppHandle> {
  const { config, database } = options;
  const clock = options.clock ?? systemClock;
  const db = database.db;

  // In production a line per request costs more than the request's own work: debug level there.
  const quietRequests = config.env === "production";
  const app = Fastify({
    logger:
      options.logger === false ? false : { level: config.logLevel, ...(options.logStream ? { stream: options.logStream } : {}) },
    ...(quietRequests ? { logController: new QuietRequestLog() } : {}),
    bodyLimit: 1024 * 1024,
    // Believing every X-Forwarded-For would let a client pick its address and dodge rate limits.
    trustProxy: trustProxyOption(config.trustProxy),
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    requestIdHeader: "x-request-id",
    // Whaticket-style clients call `/api/users/`: every route answers with or without the slash.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const outage = createOutageMonitor({
    probe: () => database.ping(),
    logger: app.log,
    probeMs: options.outageProbeMs,
  });
  registerErrorHandler(app, outage);
  app.addHook("onRequest", rejectLongUrls);

  const limits = createLimiters({ redisUrl: config.redisUrl, now: () => clock.now().getTime(), logger: app.log });
  const prefix = (name: string) => `zapdesk:${tokens.installId}:rl:${name}`;
  const limiter = (name: string, max: number, windowMs = config.rateLimit.windowMs) =>
    limits.limiter(prefix(name), max, windowMs);
  const failureLimiter = (name: string, policy: FailurePolicy) => limits.failureLimiter(prefix(name), policy);

  const tokens = createTokenService({
    db,
    clock,
    accessSecret: config.jwtSecret,
    refreshSecret: config.jwtRefreshSecret,
    accessTtlSeconds: options.accessTtlSeconds,
  });
  const sessionUsers = await startSessionUsers(app, { db, database });
  const realtime = createRealtime({
    httpServer: app.server,
    // Ports: the realtime layer asks the auth, users and routing modules through these, never imports them.
    authenticate: async (token) => {
      const session = await tokens.verifyAccessSession(token);
      // The token's own session must still exist: a socket of an ended session is refused.
      const user = await sessionUsers.find(session.userId, session.sessionId);
      return user && { user, sessionId: session.sessionId, expiresAt: session.expiresAt };
    },
    findUser: (userId) => findAuthUser(db, userId),
    seesChoosing: () => agentsSeeChoosingQueue(db),
    installId: tokens.installId,
    clock,
    logger: app.log,
    redisUrl: config.redisUrl,
    canOpenTicket: (user, ticketId) => services.tickets.canOpen(user, ticketId),
    onTyping: (user, ticketId, state) => services.messages.typing(user, ticketId, state),
  });
  const vapid = resolveVapid(config);
  const push = createPushService({
    db,
    logger: app.log,
    vapid,
    send:
      options.push?.send ??
      (vapid ? createPushSender(vapid, { allowInsecure: options.push?.allowInsecureEndpoints }) : undefined),
    allowInsecureEndpoints: options.push?.allowInsecureEndpoints,
    retryDelaysMs: options.push?.retryDelaysMs,
  });
  const events = withPush(realtime, push);
  const conversations = createConversations({
    config,
    db,
    heavy: database.heavy,
    clock,
    events,
    logger: app.log,
    simulator: options.simulator,
    factories: options.factories,
    sessionBackoff: options.sessionBackoff,
    outboxPollMs: options.outboxPollMs,
  });
  const { connections, tickets, messages, pipeline, sessions, simulator, outbox, mediaRetry } = conversations;
  const outboundWebhooks = createOutboundWebhooks({ db, clock, logger: app.log, encryptionKey: config.encryptionKey });
  const backups = createBackupService({
    database,
    storage: conversations.storage,
    mediaKind: config.mediaStorage?.kind === "s3" ? "s3" : "local",
    dir: join(config.dataDir, "backups"),
    clock,
    logger: app.log,
  });
  const retention = createRetentionService({ database, storage: conversations.storage, logger: app.log, events });

  const authLimiters = loginLimiters(config.rateLimit, limiter, failureLimiter);
  const twoFactor = createTwoFactorService({
    db,
    clock,
    secrets: createSecretBox(config.encryptionKey),
    challenges: createChallenges({ secret: config.jwtSecret, clock }),
    limiters: { user: authLimiters.twoFactorUser, ip: authLimiters.loginIp },
  });
  const services: Services = {
    tokens,
    auth: createAuthService({ db, tokens, events, limiters: authLimiters, twoFactor }),
    twoFactor,
    users: createUserService({ db, events, tokens, announceTicket: (id) => tickets.announce(id) }),
    queues: createQueueService({ db, events }),
    contacts: createContactService({ db, heavy: database.heavy, events, numbers: conversations.numbers }),
    quickAnswers: createQuickAnswerService({ db, events }),
    tags: createTagService({ db, events }),
    settings: createSettingService({ db, events, onChange: () => pipeline.settingsChanged() }),
    connections,
    tickets,
    protocol: conversations.protocol,
    messages,
    storage: conversations.storage,
    apiSend: rateLimitApiSend(
      conversations.apiSend,
      limiter("api-send", config.rateLimit.apiSendPerMinute ?? API_SEND_PER_MINUTE, 60_000),
    ),
    contactWhatsApp: conversations.contactWhatsApp,
    identity: conversations.identity,
    dashboard: conversations.dashboard,
    dashboardMetrics: conversations.dashboardMetrics,
    csatDashboard: createCsatDashboard({ db: database.heavy, clock }),
    schedules: conversations.schedules,
    notes: createNoteService({ db, clock, events, tickets, messages }),
    push,
    presence: createPresenceService({ db, presence: () => realtime.presence() }),
    autoAssign: createAutoAssigner({
      db,
      presence: () => realtime.presence(),
      announce: (id) => tickets.announce(id),
      clock,
      notifyAssignee: async (id, userId) => events.publish("ticketAssigned", { ticket: await tickets.present(id), userId }),
      logger: app.log,
      pollMs: options.outboxPollMs,
    }),
    menus: Object.assign(createMenuService({ db, events, storage: conversations.storage }), {
      sweep: conversations.menuTimeouts.sweep,
    }),
    closingReasons: createClosingReasonService({ db, events }),
    closingReport: createClosingReport({ db: database.heavy, clock }),
    ticketExport: createTicketExport({ db: database.heavy, clock }),
    apiClose: createApiClose({ tickets }),
    consent: createConsentService({ db, events }),
    contactOwner: createContactOwnerService({ db, events, get: (id) => services.contacts.get(id) }),
  };

  await registerSecurityHeaders(app, {
    publicUrl: config.publicUrl,
    embeddedPages: () => Promise.all([services.settings.get("salesPageUrl"), services.settings.get("communityPageUrl")]),
  });
  await app.register(cookie);
  await app.register(multipart, { limits: UPLOAD_LIMITS });
  registerUploadBudget(app, options.uploadBudget ?? createUploadBudget(), MAX_UPLOAD_REQUEST_BYTES);
  await registerOpenApi(app);
  installAuditContext(app);

  const context: RouteContext = {
    config,
    services,
    authenticate: createAuthenticate({ users: sessionUsers, tokens }),
    heavyReads: createHeavyReadGate(),
  };
  const notifyWebhooks = () => outboundWebhooks.worker.notify();
  const mediaLinks = createMediaLinks({ secret: config.jwtSecret, publicUrl: config.publicUrl, clock, logger: app.log });
  const { macros, rules, ruleWorker, bots } = createAutomation({
    db,
    clock,
    events,
    conversations,
    notifyWebhooks,
    logger: app.log,
    heavy: database.heavy,
    rulesPollMs: options.outboxPollMs,
    encryptionKey: config.encryptionKey,
    botTimeoutMs: options.botTimeoutMs,
    mediaLinks,
  });
  const contactData = createContactDataService({
    db,
    storage: conversations.storage,
    events,
    clock,
    announceTicket: (id) => tickets.announce(id),
  });
  const automation = { macros, bots, rules };
  const routeDeps = {
    database,
    context,
    conversations,
    outboundWebhooks,
    backups,
    retention,
    contactData,
    mediaLinks,
    ...automation,
  };
  await app.register((api) => registerApiRoutes(api, routeDeps), { prefix: "/api" });

  await registerWeb(app, config.webDist);

  app.addHook("preClose", async () => {
    backups.stop();
    await retention.stop();
    await services.autoAssign.stop();
    await ruleWorker.stop();
    await outboundWebhooks.worker.stop();
    await bots.worker.stop();
    await conversations.stop();
    await realtime.close();
  });
  app.addHook("onClose", async () => {
    outage.close();
    await limits.close();
  });

  return {
    app,
    services,
    realtime,
    sessions,
    simulator,
    outbox,
    mediaRetry,
    pipeline,
    cloudWebhooks: conversations.cloudWebhooks,
    outboundWebhooks,
    ruleWorker,
    backups,
    retention,
    bots,
    mediaLinks,
    async start() {
      await conversations.start();
      outboundWebhooks.worker.start();
      bots.worker.start();
      ruleWorker.start();
      services.autoAssign.start();
      backups.start();
      retention.start();
    },
  };
}
