import { useQueryClient } from "@tanstack/react-query";
import type { RealtimePayloads } from "@zapdesk/core";
import { useEffect, useRef } from "react";
import { applyPresenceEvent } from "../features/routing/api";
import { useAuth } from "./auth";
import { refetchWhenLanded } from "./query-updates";
import { listEventHandlers } from "./realtime-cache";
import { type AppSocket, connectSocket, disconnectSocket } from "./socket";
import { applyTagEvent } from "./tag-events";

/** Ticket and message events are the ticket features' business; the app layer hands their handlers in. */
export interface TicketEventHandlers {
  ticket(event: RealtimePayloads["ticket"]): void;
  appMessage(event: RealtimePayloads["appMessage"]): void;
  /** Issue 22 §1: a retention sweep removed a ticket's messages or their files (one event per ticket). */
  messagesRemoved?(event: RealtimePayloads["messagesRemoved"]): void;
  /** Issue 11: a private note mentioned this user. */
  noteMention?(event: RealtimePayloads["noteMention"]): void;
  /** Issue 13: automatic assignment gave this user a ticket. */
  ticketAssigned?(event: RealtimePayloads["ticketAssigned"]): void;
  /** WhatsApp restricted a connection's number (admins only). */
  connectionRestricted?(event: RealtimePayloads["connectionRestricted"]): void;
}

/**
 * The only subscriber to the socket: every event becomes a cache update, so
 * screens re-render from TanStack Query and never listen themselves.
 */
export function useRealtimeSync(ticketHandlers?: TicketEventHandlers): void {
  const client = useQueryClient();
  const { user, updateUser } = useAuth();
  const userId = user?.id;
  // The latest handlers without reconnecting when they change (they close over the current route).
  const handlers = useRef(ticketHandlers);
  handlers.current = ticketHandlers;

  useEffect(() => {
    if (!userId) return;
    let active = true;
    let subscribed: AppSocket | null = null;
    // Connects after the first paint (socket.io's client is fetched then, not with the app).
    connectSocket().then(
      (socket) => {
        if (!active) return;
        subscribed = socket;
        subscribe(socket);
      },
      () => {
        // Closed before it opened (signed out): nothing to listen to.
      },
    );

    function subscribe(socket: AppSocket) {
      let connectedBefore = false;
      socket.on("connect", () => {
        socket.emit("joinNotification");
        // Events missed while offline cannot be replayed: refetch what is on screen. On the first
        // connection, what was fetched before the socket listened (the first screen paints
        // before it connects) is refetched the same way. The invalidation restarts a fetch under
        // way where there is data; a first fetch under way may have read the server before an
        // event the socket did not hear, and is fetched again once it lands.
        refetchWhenLanded(client, { predicate: (query) => query.state.data === undefined });
        if (connectedBefore) client.invalidateQueries();
        else client.invalidateQueries({ predicate: (query) => query.state.dataUpdatedAt > 0 });
        connectedBefore = true;
      });
      // A scaled-out server had lost Redis: other processes' events of that time never came.
      socket.on("resync", () => client.invalidateQueries());

      const lists = listEventHandlers(client, updateUser, userId);
      socket.on("user", lists.user);
      socket.on("contact", lists.contact);
      socket.on("quickAnswer", lists.quickAnswer);
      socket.on("queue", lists.queue);
      socket.on("settings", lists.settings);
      socket.on("whatsapp", lists.whatsapp);
      socket.on("whatsappSession", lists.whatsappSession);
      socket.on("tag", (event) => applyTagEvent(client, event));
      // Issue 23 §6: the closing reasons' admin page and the Resolve pickers refetch the list.
      socket.on("closingReason", () => client.invalidateQueries({ queryKey: ["closingReasons"] }));
      // Issue 22 §3: a contact's consent records (the drawer) and the consent settings (admins) refetch.
      socket.on("contactConsent", (event) => client.invalidateQueries({ queryKey: ["contactConsent", event.contactId] }));
      socket.on("consentSettings", () => client.invalidateQueries({ queryKey: ["consentSettings"] }));
      // Issue 23 §2: the macros page and the "Run macro" lists refetch.
      socket.on("macro", () => client.invalidateQueries({ queryKey: ["macros"] }));
      // Issue 23 §1: the automation rules page refetches (admins only hear it).
      socket.on("automationRule", () => client.invalidateQueries({ queryKey: ["automationRules"] }));

      socket.on("ticket", (event) => handlers.current?.ticket(event));
      socket.on("appMessage", (event) => handlers.current?.appMessage(event));
      socket.on("messagesRemoved", (event) => handlers.current?.messagesRemoved?.(event));
      // Issue 11: scheduled messages (the composer's pending bubbles, the Agendamento list) are refetched.
      socket.on("schedule", () => client.invalidateQueries({ queryKey: ["schedules"] }));
      socket.on("noteMention", (event) => handlers.current?.noteMention?.(event));
      socket.on("ticketAssigned", (event) => handlers.current?.ticketAssigned?.(event));
      socket.on("connectionRestricted", (event) => handlers.current?.connectionRestricted?.(event));
      // Issue 13: presence dots; the "choosing a queue" setting changes what an agent's lists hold.
      socket.on("presence", (event) => applyPresenceEvent(client, event));
      socket.on("settings", (event) => {
        if (event.setting.key === "showChoosingQueue") client.invalidateQueries({ queryKey: ["tickets"] });
      });
    }

    return () => {
      active = false;
      subscribed?.removeAllListeners();
      disconnectSocket();
    };
  }, [client, userId, updateUser]);
}
