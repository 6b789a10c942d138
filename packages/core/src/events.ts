import type { Rule } from "./schemas/automation-rules.js";
import type { ClosingReason } from "./schemas/closing-reasons.js";
import type { Connection } from "./schemas/connections.js";
import type { Contact } from "./schemas/contacts.js";
import type { Macro } from "./schemas/macros.js";
import type { MenuResponse } from "./schemas/menus.js";
import type { Message } from "./schemas/messages.js";
import type { NoteMention } from "./schemas/notes.js";
import type { PresenceStatus } from "./schemas/presence.js";
import type { Queue } from "./schemas/queues.js";
import type { QuickAnswer } from "./schemas/quick-answers.js";
import type { Schedule } from "./schemas/schedules.js";
import type { Setting } from "./schemas/settings.js";
import type { Tag } from "./schemas/tags.js";
import type { Ticket } from "./schemas/tickets.js";
import type { User } from "./schemas/users.js";

type Upsert = "create" | "update";

/** Payloads of every realtime event (wire.md); the server emits only these. */
export interface RealtimePayloads {
  user: { action: Upsert; user: User } | { action: "delete"; userId: number };
  queue: { action: Upsert; queue: Queue } | { action: "delete"; queueId: number };
  quickAnswer: { action: Upsert; quickAnswer: QuickAnswer } | { action: "delete"; quickAnswerId: number };
  contact: { action: Upsert; contact: Contact } | { action: "delete"; contactId: number };
  settings: { action: "update"; setting: Setting };
  /** Issue 11: a tag deleted is gone from every ticket and contact (clients drop it from what they hold). */
  tag: { action: Upsert; tag: Tag } | { action: "delete"; tagId: number };
  /** Issue 23 §6: the list of closing reasons changed (the pickers and the admin page refetch). */
  closingReason: { action: Upsert; closingReason: ClosingReason } | { action: "delete"; closingReasonId: number };
  /** Issue 23 §2: a macro changed; a personal one reaches its owner only (and the admins). */
  macro: { action: Upsert; macro: Macro } | { action: "delete"; macroId: number; ownerId: number | null };
  /** Issue 23 §3: a connection's menu tree was replaced (admins only; the editor refetches). */
  menu: { action: "update"; menu: MenuResponse };
  /** Issue 23 §1: an automation rule changed (admins only). */
  automationRule: { action: Upsert; rule: Rule } | { action: "delete"; ruleId: number };
  whatsapp: { action: "update"; whatsapp: Connection } | { action: "delete"; whatsappId: number };
  whatsappSession: { action: "update"; session: Connection };
  /** WhatsApp restricted the number or warned about its cap on new chats (admins only; the web and push tell them). */
  connectionRestricted: { whatsapp: Connection };
  ticket:
    | { action: "update"; ticket: Ticket }
    | { action: "updateUnread"; ticketId: number }
    /** `reason: "moved"`: the ticket still exists but left this user's reach (transfer, queue change). */
    | { action: "delete"; ticketId: number; reason?: "moved" };
  appMessage:
    | { action: "create"; message: Message; ticket: Ticket; contact: Ticket["contact"] }
    | { action: "update"; message: Message };
  /**
   * Issue 22 §1: a retention sweep removed this ticket's messages (or only their files): one event
   * per ticket, whatever the number of messages; an open conversation refetches, the lists drop the preview.
   */
  messagesRemoved: { ticketId: number; removed: "media" | "messages" };
  /** Issue 11: a scheduled message was created, edited, cancelled, sent or failed (scoped like its ticket). */
  schedule: { action: Upsert; schedule: Schedule };
  /** Issue 13: automatic assignment gave this ticket to `userId`; delivered to that user's sockets only. */
  ticketAssigned: { ticket: Ticket; userId: number };
  /** Issue 11: a private note mentioned a user; delivered to that user's sockets only. */
  noteMention: { action: "create"; mention: NoteMention & { userId: number } };
  /** Issue 13: a user's presence changed (from their sockets, on every process). */
  presence: { action: "update"; userId: number; status: PresenceStatus };
  /** Issue 22 §3: a contact's consent records changed (an answer, an opt-out, an opt-in); clients refetch them. */
  contactConsent: { contactId: number };
  /** Issue 22 §3: the consent settings changed (admins' page refetches). */
  consentSettings: { action: "update" };
}

export type RealtimeEventName = keyof RealtimePayloads;

export type ServerToClientEvents = {
  [K in RealtimeEventName]: (payload: RealtimePayloads[K]) => void;
} & {
  /**
   * Events may have been lost (a scaled-out server lost Redis for a while and has it back):
   * refetch what is shown, as after a reconnection.
   */
  resync: (payload: { reason: "adapter" }) => void;
};

export interface ClientToServerEvents {
  joinNotification: () => void;
  joinTickets: (status: string) => void;
  joinChatBox: (ticketId: number | string, ack?: (result: { ok: boolean; error?: string }) => void) => void;
  leaveChatBox: (ticketId: number | string) => void;
  /** The agent is typing in (or stopped typing in) a ticket: the customer sees "typing…" where the channel can. */
  typing: (ticketId: number | string, state: "composing" | "paused") => void;
  /** Issue 13: this tab's user is idle or chose "Away" ("away"), or is back ("online"). */
  presence: (status: "online" | "away") => void;
}
