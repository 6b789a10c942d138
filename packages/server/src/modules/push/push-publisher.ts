import type { RealtimePayloads } from "@zapdesk/core";
import type { Publisher } from "../../realtime/publisher.js";
import type { PushService } from "./push.service.js";

/**
 * The realtime publisher with push beside it: every customer message the bell hears about
 * (`appMessage` create) is also handed to the push fan-out, from the same event path.
 */
export function withPush(
  publisher: Publisher,
  push: Pick<PushService, "messageCreated" | "mentionCreated" | "ticketAssigned" | "connectionRestricted">,
): Publisher {
  return {
    ...publisher,
    publish(event, payload) {
      publisher.publish(event, payload);
      // Issue 13: an automatic assignment reaches the assignee by push too.
      if (event === "ticketAssigned") {
        const body = payload as RealtimePayloads["ticketAssigned"];
        push.ticketAssigned(body.ticket, body.userId);
      }
      // A restricted number reaches the admins by push too.
      if (event === "connectionRestricted")
        push.connectionRestricted((payload as RealtimePayloads["connectionRestricted"]).whatsapp);
      // Issue 11's note mentions reach the mentioned user by push too.
      if (event === "noteMention") {
        const body = payload as RealtimePayloads["noteMention"];
        if (body.action === "create") push.mentionCreated(body.mention);
      }
    },
    publishTicket(event, payload, scope) {
      publisher.publishTicket(event, payload, scope);
      if (event === "appMessage") {
        const body = payload as Extract<typeof payload, { action: "create"; message: unknown }>;
        if (body.action === "create") push.messageCreated(body.message, body.ticket);
      }
    },
    publishToUser: (event, payload, userId) => publisher.publishToUser(event, payload, userId),
    ticketMoved: (ticketId, from, to) => publisher.ticketMoved(ticketId, from, to),
    userAccessChanged: (userId, options) => publisher.userAccessChanged(userId, options),
    endSessions: (userId, sessionIds) => publisher.endSessions(userId, sessionIds),
  };
}
