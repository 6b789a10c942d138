import type { onRequestHookHandler } from "fastify";
import type { Config } from "./config.js";
import type { HeavyReadGate } from "./lib/heavy-reads.js";
import type { MediaStorage } from "./media/storage.js";
import type { AuthService } from "./modules/auth/auth.service.js";
import type { TokenService } from "./modules/auth/tokens.js";
import type { ApiClose } from "./modules/closing-reasons/api-close.js";
import type { ClosingReasonService } from "./modules/closing-reasons/closing-reasons.service.js";
import type { ClosingReportService } from "./modules/closing-reasons/closing-report.js";
import type { ConnectionService } from "./modules/connections/connections.service.js";
import type { ConsentService } from "./modules/consent/consent.service.js";
import type { ContactOwnerService } from "./modules/contact-owner/contact-owner.service.js";
import type { ContactIdentity } from "./modules/contacts/contact-identity.js";
import type { ContactService } from "./modules/contacts/contacts.service.js";
import type { ContactWhatsApp } from "./modules/contacts/contacts-whatsapp.js";
import type { CsatDashboard } from "./modules/csat/csat.dashboard.js";
import type { createDashboardService } from "./modules/dashboard/dashboard.service.js";
import type { createMetricsService } from "./modules/dashboard/metrics.service.js";
import type { MenuService } from "./modules/menus/menus.service.js";
import type { ApiSend } from "./modules/messages/api-send.js";
import type { MessageService } from "./modules/messages/messages.service.js";
import type { NoteService } from "./modules/notes/notes.service.js";
import type { PushService } from "./modules/push/push.service.js";
import type { QueueService } from "./modules/queues/queues.service.js";
import type { QuickAnswerService } from "./modules/quick-answers/quick-answers.service.js";
import type { AutoAssigner } from "./modules/routing/auto-assign.js";
import type { PresenceService } from "./modules/routing/presence.service.js";
import type { ScheduleService } from "./modules/schedules/schedules.service.js";
import type { SettingService } from "./modules/settings/settings.service.js";
import type { TagService } from "./modules/tags/tags.service.js";
import type { createProtocolService } from "./modules/tickets/protocol.js";
import type { TicketService } from "./modules/tickets/tickets.service.js";
import type { TicketExport } from "./modules/tickets/tickets-export.js";
import type { TwoFactorService } from "./modules/two-factor/two-factor.service.js";
import type { UserService } from "./modules/users/users.service.js";

export interface Services {
  auth: AuthService;
  tokens: TokenService;
  /** Issue 22 §5: two-factor sign-in (TOTP and recovery codes). */
  twoFactor: TwoFactorService;
  users: UserService;
  queues: QueueService;
  contacts: ContactService;
  quickAnswers: QuickAnswerService;
  settings: SettingService;
  connections: ConnectionService;
  tickets: TicketService;
  protocol: ReturnType<typeof createProtocolService>;
  messages: MessageService;
  storage: MediaStorage;
  apiSend: ApiSend;
  contactWhatsApp: ContactWhatsApp;
  /** Issue 18: one customer is one contact (an admin's merge of two). */
  identity: Pick<ContactIdentity, "merge">;
  dashboard: ReturnType<typeof createDashboardService>;
  dashboardMetrics: ReturnType<typeof createMetricsService>;
  csatDashboard: CsatDashboard;
  /** Issue 11: scheduled messages; `sweep()` hands the due ones to the outbox now (tests). */
  schedules: ScheduleService & { sweep(): Promise<number> };
  notes: NoteService;
  tags: TagService;
  /** Issue 13: web push subscriptions, notification preferences and the push fan-out. */
  push: PushService;
  /** Issue 13: presence and agents' load. */
  presence: PresenceService;
  /** Issue 13: automatic assignment; `sweep()` runs a pass now (tests). */
  autoAssign: AutoAssigner;
  /** Issue 23 §6: closing reasons, their report, the tickets export and the API token's close. */
  closingReasons: ClosingReasonService;
  closingReport: ClosingReportService;
  ticketExport: TicketExport;
  apiClose: ApiClose;
  /** Issue 22 §3: consent messages, opt-out words, a contact's consent records. */
  consent: ConsentService;
  /** Issue 23 §5: contact owners set by hand. */
  contactOwner: ContactOwnerService;
  /** Issue 23 §3: connections' menu trees; `sweep()` hands timed-out menus over now (tests). */
  menus: MenuService & { sweep(): Promise<number> };
}

/** What every route plugin is registered with. */
export interface RouteContext {
  config: Config;
  services: Services;
  authenticate: onRequestHookHandler;
  /** Issue 19: at most one search or dashboard read in flight per user (lib/heavy-reads.ts). */
  heavyReads: HeavyReadGate;
}
