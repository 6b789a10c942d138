import type { onRequestHookHandler } from "fastify";
import type { Config } from "../config.js";
import type { MediaStorage } from "../media/storage.js";
import type { AuthService } from "../modules/auth/auth.service.js";
import type { TokenService } from "../modules/auth/tokens.js";
import type { ConnectionService } from "../modules/connections/connections.service.js";
import type { ContactService } from "../modules/contacts/contacts.service.js";
import type { ContactWhatsApp } from "../modules/contacts/contacts-whatsapp.js";
import type { createDashboardService } from "../modules/dashboard/dashboard.service.js";
import type { ApiSend } from "../modules/messages/api-send.js";
import type { MessageService } from "../modules/messages/messages.service.js";
import type { QueueService } from "../modules/queues/queues.service.js";
import type { QuickAnswerService } from "../modules/quick-answers/quick-answers.service.js";
import type { SettingService } from "../modules/settings/settings.service.js";
import type { createProtocolService } from "../modules/tickets/protocol.js";
import type { TicketService } from "../modules/tickets/tickets.service.js";
import type { UserService } from "../modules/users/users.service.js";

export interface Services {
  auth: AuthService;
  tokens: TokenService;
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
  dashboard: ReturnType<typeof createDashboardService>;
}

/** What every route plugin is registered with. */
export interface RouteContext {
  config: Config;
  services: Services;
  authenticate: onRequestHookHandler;
}
