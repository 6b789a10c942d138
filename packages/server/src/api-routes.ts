import type { FastifyInstance } from "fastify";
import { simulatorRoutes } from "./channels/simulator/simulator.routes.js";
import type { Conversations } from "./conversations.js";
import type { Database } from "./db/client.js";
import type { MediaLinks } from "./media/media-links.js";
import { auditRoutes } from "./modules/audit/audit.routes.js";
import { authRoutes } from "./modules/auth/auth.routes.js";
import { sessionRoutes } from "./modules/auth/sessions.routes.js";
import { automationRuleRoutes } from "./modules/automation-rules/rules.routes.js";
import type { RuleService } from "./modules/automation-rules/rules.service.js";
import { backupRoutes } from "./modules/backups/backups.routes.js";
import type { BackupService } from "./modules/backups/backups.service.js";
import { type Bots, botRoutes } from "./modules/bots/index.js";
import { closingReasonRoutes } from "./modules/closing-reasons/closing-reasons.routes.js";
import { connectionRoutes } from "./modules/connections/connections.routes.js";
import { consentRoutes } from "./modules/consent/consent.routes.js";
import { contactDataRoutes } from "./modules/contact-data/contact-data.routes.js";
import type { ContactDataService } from "./modules/contact-data/contact-data.service.js";
import { contactOwnerRoutes } from "./modules/contact-owner/contact-owner.routes.js";
import { contactRoutes } from "./modules/contacts/contacts.routes.js";
import { contactWhatsAppRoutes } from "./modules/contacts/contacts-whatsapp.routes.js";
import { csatRoutes } from "./modules/csat/csat.routes.js";
import { dashboardRoutes } from "./modules/dashboard/dashboard.routes.js";
import { healthRoutes } from "./modules/health/health.routes.js";
import { macroRoutes } from "./modules/macros/macros.routes.js";
import type { MacroService } from "./modules/macros/macros.service.js";
import { menuRoutes } from "./modules/menus/menus.routes.js";
import { messageRoutes } from "./modules/messages/messages.routes.js";
import { publicMediaRoutes } from "./modules/messages/public-media.routes.js";
import { noteRoutes } from "./modules/notes/notes.routes.js";
import { type OutboundWebhooks, outboundWebhookRoutes } from "./modules/outbound-webhooks/index.js";
import { pushRoutes } from "./modules/push/push.routes.js";
import { queueRoutes } from "./modules/queues/queues.routes.js";
import { quickAnswerRoutes } from "./modules/quick-answers/quick-answers.routes.js";
import { retentionRoutes } from "./modules/retention/retention.routes.js";
import type { RetentionService } from "./modules/retention/retention.service.js";
import { autoAssignRoutes, routingRoutes } from "./modules/routing/routing.routes.js";
import { scheduleRoutes } from "./modules/schedules/schedules.routes.js";
import { settingRoutes } from "./modules/settings/settings.routes.js";
import { tagRoutes } from "./modules/tags/tags.routes.js";
import { templateRoutes } from "./modules/templates/templates.routes.js";
import { ticketRoutes } from "./modules/tickets/tickets.routes.js";
import { twoFactorRoutes } from "./modules/two-factor/two-factor.routes.js";
import { userRoutes } from "./modules/users/users.routes.js";
import { webhookRoutes } from "./modules/webhooks/webhooks.routes.js";
import type { RouteContext } from "./services.js";

export interface ApiRouteDeps {
  database: Database;
  context: RouteContext;
  conversations: Conversations;
  outboundWebhooks: OutboundWebhooks;
  backups: BackupService;
  retention: RetentionService;
  contactData: ContactDataService;
  /** Issue 23 §2. */
  macros: MacroService;
  /** Issue 23 §4. */
  bots: Bots;
  /** Issue 23 §1. */
  rules: RuleService;
  /** Signed links to a message's media (bots fetch the customer's files). */
  mediaLinks: MediaLinks;
}

/** Every route under /api: the modules that take the shared RouteContext, then those with deps of their own. */
export async function registerApiRoutes(api: FastifyInstance, deps: ApiRouteDeps): Promise<void> {
  const { database, context, conversations, outboundWebhooks, backups, retention, contactData, macros, bots, rules, mediaLinks } =
    deps;
  const { authenticate } = context;
  await api.register(healthRoutes, { database });
  for (const routes of [
    authRoutes,
    twoFactorRoutes,
    sessionRoutes,
    userRoutes,
    queueRoutes,
    contactRoutes,
    contactWhatsAppRoutes,
    quickAnswerRoutes,
    settingRoutes,
    connectionRoutes,
    ticketRoutes,
    messageRoutes,
    dashboardRoutes,
    csatRoutes,
    scheduleRoutes,
    noteRoutes,
    tagRoutes,
    pushRoutes,
    routingRoutes,
    autoAssignRoutes,
    closingReasonRoutes,
    consentRoutes,
    contactOwnerRoutes,
    menuRoutes,
  ]) {
    await api.register(routes, context);
  }
  await api.register(simulatorRoutes, { authenticate, hub: conversations.simulator, sessions: conversations.sessions });
  await api.register(templateRoutes, {
    authenticate,
    templates: conversations.templates,
    sendTemplate: conversations.sendTemplate,
  });
  await api.register(webhookRoutes, {
    db: database.db,
    webhooks: conversations.cloudWebhooks,
    openSecret: conversations.cloud.openSecret,
    logger: api.log,
  });
  await api.register(outboundWebhookRoutes, { authenticate, webhooks: outboundWebhooks.service });
  await api.register(backupRoutes, { authenticate, backups, db: database.db });
  await api.register(retentionRoutes, { authenticate, retention });
  await api.register(auditRoutes, { authenticate, db: database.db });
  await api.register(contactDataRoutes, { authenticate, data: contactData });
  await api.register(macroRoutes, { authenticate, macros });
  await api.register(botRoutes, {
    authenticate,
    bots: bots.service,
    authorizeToken: (header, ip) => context.services.apiSend.authorize(header, ip),
    presentMessage: (id) => conversations.messages.present(id),
  });
  await api.register(automationRuleRoutes, { authenticate, rules });
  await api.register(publicMediaRoutes, {
    links: mediaLinks,
    linkedMedia: (id) => context.services.messages.linkedMedia(id),
  });
}
