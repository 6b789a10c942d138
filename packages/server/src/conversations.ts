import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import { createBaileysChannelFactory } from "./channels/baileys/baileys-channel.js";
import type { ChannelFactories } from "./channels/channel.js";
import type { CloudDeps } from "./channels/cloud/cloud-account.js";
import { createCloudChannelFactory } from "./channels/cloud/cloud-channel.js";
import { createCloudWebhooks } from "./channels/cloud/cloud-webhooks.js";
import { graphVersionWarning } from "./channels/cloud/graph-version.js";
import { LEASE_TIMING } from "./channels/session-lease.js";
import { createSessionManager, type SessionManager } from "./channels/session-manager.js";
import { createSimulatorHub, type SimulatorHubOptions } from "./channels/simulator/simulator-hub.js";
import type { Config } from "./config.js";
import type { Db } from "./db/client.js";
import { createHousekeeping } from "./jobs/housekeeping.js";
import { createMediaRetry } from "./jobs/media-retry.js";
import { createOutboxWorker, type OutboxWorker } from "./jobs/outbox-worker.js";
import { createScheduleSweeper } from "./jobs/schedule-sweeper.js";
import type { Clock } from "./lib/clock.js";
import { createSecretBox } from "./lib/secret-box.js";
import { createS3Storage } from "./media/s3-storage.js";
import { createMediaStorage } from "./media/storage.js";
import { createQuietSkips } from "./modules/automation-rules/rule-quiet.js";
import { createChannelStore } from "./modules/connections/channel-store.js";
import { createConnectionService } from "./modules/connections/connections.service.js";
import { type ContactIdentity, createContactIdentity } from "./modules/contacts/contact-identity.js";
import { createContactWhatsApp } from "./modules/contacts/contacts-whatsapp.js";
import { createNumberLookup } from "./modules/contacts/whatsapp-number.js";
import { createDashboardService } from "./modules/dashboard/dashboard.service.js";
import { createMetricsService } from "./modules/dashboard/metrics.service.js";
import { createMenuTimeoutSweeper } from "./modules/menus/menu-timeout.js";
import { createApiSend } from "./modules/messages/api-send.js";
import { createInboundPipeline } from "./modules/messages/inbound.js";
import { createMessageService } from "./modules/messages/messages.service.js";
import { createOutboundQueue } from "./modules/messages/outbound-queue.js";
import { createTemplateSend } from "./modules/messages/template-send.js";
import { createScheduleService } from "./modules/schedules/schedules.service.js";
import { createTemplateService } from "./modules/templates/templates.service.js";
import { createProtocolService } from "./modules/tickets/protocol.js";
import * as ticketsRepo from "./modules/tickets/tickets.repo.js";
import { createTicketService } from "./modules/tickets/tickets.service.js";
import type { Publisher } from "./realtime/publisher.js";

export interface ConversationOptions {
  config: Config;
  db: Db;
  /** Issue 19: the heavy-read pool (searches, dashboards); the main pool when absent. */
  heavy?: Db;
  clock: Clock;
  events: Publisher;
  logger: FastifyBaseLogger;
  simulator?: SimulatorHubOptions;
  factories?: Partial<ChannelFactories>;
  sessionBackoff?: { initialMs: number; maxMs: number };
  outboxPollMs?: number;
}

/**
 * The conversation side of the server: WhatsApp sessions, the inbound pipeline,
 * tickets, messages and the background jobs that send and recover media. They
 * refer to each other (a session feeds the pipeline, the pipeline queues bot
 * messages, the outbox sends through sessions), so they are wired here in one place.
 */
export function createConversations(options: ConversationOptions) {
  const { config, db, clock, events, logger } = options;
  const heavy = options.heavy ?? db;
  // Scaled out, every process must serve every file: an S3-compatible bucket instead of DATA_DIR/media.
  const storage =
    config.mediaStorage?.kind === "s3" ? createS3Storage(config.mediaStorage) : createMediaStorage(join(config.dataDir, "media"));
  const simulator = createSimulatorHub(options.simulator);
  // What the channels read and write in the database: they never touch the tables themselves.
  const channelStore = createChannelStore(db);

  // Late-bound: created below, used only once requests or sessions run.
  let sessions!: SessionManager;
  let outbox!: OutboxWorker;
  const notifyOutbox = () => outbox.notify();
  const session = (whatsappId: number) => sessions.get(whatsappId);
  const optionalSession = (whatsappId: number) => (sessions.isConnected(whatsappId) ? sessions.get(whatsappId) : undefined);

  const connections = createConnectionService({
    db,
    events,
    sessions: () => sessions,
    secrets: createSecretBox(config.encryptionKey),
    publicUrl: config.publicUrl,
    onNewChatsAllowed: (id) => {
      outbox.releaseHolds(id).catch((error) => logger.warn({ err: error, whatsappId: id }, "could not release held messages"));
    },
  });
  // Late-bound too: the identity module announces through the ticket service created below.
  let identity!: ContactIdentity;
  const numbers = createNumberLookup({ db, session: optionalSession, identity: () => identity, logger });
  // Every message the server queues: woken and announced after commit (through the message service below).
  const outbound = createOutboundQueue({
    notifyOutbox,
    announce: (ticketId, messageIds) => messages.announceCreated(ticketId, messageIds),
  });
  const tickets = createTicketService({
    db,
    heavy,
    events,
    clock,
    outbound,
    recheckNumber: (contactId, whatsappId) => numbers.recheck(contactId, whatsappId),
    markReadOnWhatsApp: (ticket, wids) => {
      const live = ticket.whatsappId !== null ? optionalSession(ticket.whatsappId) : undefined;
      if (!live) return;
      void ticketsRepo
        .findJoinedTicket(db, ticket.id)
        .then((row) => row && live.markRead({ chat: row.contact.number, isGroup: ticket.isGroup, wids }))
        .catch((error) => logger.debug({ err: error }, "mark read failed"));
    },
  });
  const messages = createMessageService({
    clock,
    db,
    events,
    tickets,
    storage,
    notifyOutbox,
    outbound,
    session,
  });
  const announce = (ticketId: number, messageId: number) => messages.announceCreated(ticketId, [messageId]);
  const schedules = createScheduleService({ db, clock, events, tickets, storage });
  const scheduleSweeper = createScheduleSweeper({
    db,
    clock,
    logger,
    pollMs: options.outboxPollMs,
    outbound,
    onHandled: (result) => {
      schedules
        .announce(result.scheduleId, "update")
        .catch((error) => logger.debug({ err: error }, "could not publish a schedule"));
    },
  });
  // Issue 23 §3: a menu level not answered in time hands the ticket over (once, whatever the processes).
  const menuTimeouts = createMenuTimeoutSweeper({
    db,
    clock,
    logger,
    pollMs: options.outboxPollMs,
    onTimedOut: async (result) => {
      events.ticketMoved(result.ticketId, result.from, result.to);
      if (result.messageIds.length === 0) return tickets.announce(result.ticketId);
      notifyOutbox();
      await messages.announceCreated(result.ticketId, result.messageIds);
    },
  });
  identity = createContactIdentity({
    db,
    events,
    logger,
    announceTicket: (id) => tickets.announce(id),
    announceTicketDeleted: (id, scope) => events.publishTicket("ticket", { action: "delete", ticketId: id }, scope),
  });
  // Issue 23 §1: what the rules skipped on customers' messages that were not queued for them.
  const ruleSkips = createQuietSkips({ db, logger });
  const pipeline = createInboundPipeline({
    db,
    ruleSkips,
    events,
    storage,
    clock,
    logger,
    identity,
    mediaMaxBytes: config.mediaMaxBytes,
    notifyOutbox,
    outbound,
    session: optionalSession,
    announce,
  });

  const cloud: CloudDeps = {
    graphUrl: config.graphUrl,
    openSecret: (sealed) => connections.openSecret(sealed),
    timeoutMs: config.graphTimeouts?.callMs,
    mediaTimeoutMs: config.graphTimeouts?.mediaMs,
  };
  // A retired Graph version stops every Cloud API connection at once: say so at boot, months ahead.
  const graphWarning = graphVersionWarning(config.graphUrl, clock.now());
  if (graphWarning) logger.warn({ graphUrl: config.graphUrl }, graphWarning);
  // Meta's webhooks reach any process: stored, then processed here or by any process's sweeper.
  const cloudWebhooks = createCloudWebhooks({
    store: channelStore,
    sink: pipeline,
    cloud,
    mediaMaxBytes: config.mediaMaxBytes,
    logger,
    onActivity: (id) => connections.touch(id),
    onAccountError: (id, error) => connections.applyState(id, { lastError: error }),
  });
  const templates = createTemplateService({ db, cloud });

  sessions = createSessionManager({
    store: channelStore,
    logger,
    factories: {
      baileys: createBaileysChannelFactory({ webSocketUrl: config.whatsappWebUrl }),
      simulator: simulator.factory,
      cloud: createCloudChannelFactory(cloud),
      ...options.factories,
    },
    sink: pipeline,
    onState: (id, state) => connections.applyState(id, state),
    onActivity: (id) => connections.touch(id),
    mediaMaxBytes: config.mediaMaxBytes,
    spoolDir: join(config.dataDir, "spool"),
    backoff: options.sessionBackoff,
    // Scaled out, each connection is owned by one process through a lease (design §2).
    lease: config.redisUrl
      ? { owner: `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`, ...LEASE_TIMING }
      : undefined,
    onAdopted: (id) => outbox.releaseClaims(id),
  });
  outbox = createOutboxWorker({
    db,
    storage,
    clock,
    session,
    connectedIds: async () => (await connections.listAll()).map((c) => c.id).filter((id) => sessions.isConnected(id)),
    logger,
    pollMs: options.outboxPollMs,
    // Issue 18: a Cloud send answer named the recipient by WhatsApp's own number (ninth digit): the contact moves there.
    onRecipient: async (ticketId, canonicalTo) => {
      const ticket = await ticketsRepo.findTicket(db, ticketId);
      if (ticket && !ticket.isGroup) await identity.renumber(ticket.contactId, canonicalTo);
    },
    onSent: (id) => {
      messages.announceUpdated(id).catch((error) => logger.debug({ err: error }, "could not publish a sent message"));
      schedules.messageSettled(id).catch((error) => logger.debug({ err: error }, "could not publish a schedule"));
    },
  });
  const housekeeping = createHousekeeping({ db, logger, clock });
  const mediaRetry = createMediaRetry({
    db,
    storage,
    mediaMaxBytes: config.mediaMaxBytes,
    session: optionalSession,
    logger,
    onRecovered: (id) => messages.announceUpdated(id),
  });

  return {
    storage,
    ruleSkips,
    simulator,
    sessions,
    outbox,
    mediaRetry,
    pipeline,
    connections,
    tickets,
    messages,
    schedules: Object.assign(schedules, { sweep: scheduleSweeper.sweep }),
    scheduleSweeper,
    menuTimeouts,
    protocol: createProtocolService({ db, tickets, clock, logger, outbound }),
    apiSend: createApiSend({ db, numbers, outbound, present: messages.present }),
    contactWhatsApp: createContactWhatsApp({ db, events, session, numbers }),
    numbers,
    identity,
    dashboard: createDashboardService({ db: heavy, clock }),
    dashboardMetrics: createMetricsService({ db: heavy, clock }),
    cloud,
    cloudWebhooks,
    templates,
    sendTemplate: createTemplateSend({ db, tickets, messages, templates, outbound }),

    async start() {
      await storage.check();
      await sessions.startAll();
      outbox.start();
      scheduleSweeper.start();
      menuTimeouts.start();
      mediaRetry.start();
      cloudWebhooks.start();
      housekeeping.start();
    },

    async stop() {
      housekeeping.stop();
      await cloudWebhooks.stop();
      await scheduleSweeper.stop();
      await menuTimeouts.stop();
      await outbox.stop();
      await mediaRetry.stop();
      await sessions.stopAll();
      // What the rules' worker (stopped before this) did not add yet.
      await ruleSkips.flush();
      await storage.close();
    },
  };
}

export type Conversations = ReturnType<typeof createConversations>;
