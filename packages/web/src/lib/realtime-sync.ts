import { useQueryClient } from "@tanstack/react-query";
import type { Connection, Contact, Queue, QuickAnswer, RealtimePayloads, Setting, User } from "@zapdesk/core";
import { useEffect, useRef } from "react";
import { useAuth } from "./auth";
import { removeFromArray, removeFromPages, textMatches, upsertInArray, upsertInPages } from "./list-cache";
import { queryKeys } from "./query-keys";
import { connectSocket, disconnectSocket } from "./socket";

const listOf = (all: readonly string[]) => [...all, "list"];

/** Ticket and message events are the ticket features' business; the app layer hands their handlers in. */
export interface TicketEventHandlers {
  ticket(event: RealtimePayloads["ticket"]): void;
  appMessage(event: RealtimePayloads["appMessage"]): void;
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
    const socket = connectSocket();
    let connectedBefore = false;
    socket.on("connect", () => {
      socket.emit("joinNotification");
      // Events missed while offline cannot be replayed: refetch what is on screen.
      if (connectedBefore) client.invalidateQueries();
      connectedBefore = true;
    });

    socket.on("user", (event) => {
      if (event.action === "delete") return removeFromPages(client, listOf(queryKeys.users.all), "users", event.userId);
      upsertInPages<"users", User>(client, listOf(queryKeys.users.all), "users", event.user, (u, s) =>
        textMatches(s, u.name, u.email),
      );
      if (event.user.id === userId) updateUser(event.user);
    });
    socket.on("contact", (event) => {
      if (event.action === "delete") {
        client.removeQueries({ queryKey: queryKeys.contacts.detail(event.contactId) });
        return removeFromPages(client, listOf(queryKeys.contacts.all), "contacts", event.contactId);
      }
      upsertInPages<"contacts", Contact>(client, listOf(queryKeys.contacts.all), "contacts", event.contact, (c, s) =>
        textMatches(s, c.name, c.number, c.email),
      );
      client.setQueryData<Contact>(queryKeys.contacts.detail(event.contact.id), (old) =>
        old ? { ...old, ...event.contact } : old,
      );
    });
    socket.on("quickAnswer", (event) => {
      const key = listOf(queryKeys.quickAnswers.all);
      if (event.action === "delete") return removeFromPages(client, key, "quickAnswers", event.quickAnswerId);
      upsertInPages<"quickAnswers", QuickAnswer>(client, key, "quickAnswers", event.quickAnswer, (q, s) =>
        textMatches(s, q.shortcut, q.message),
      );
    });
    socket.on("queue", (event) => {
      if (event.action === "delete") return removeFromArray<Queue>(client, queryKeys.queues.all, event.queueId);
      upsertInArray<Queue>(client, queryKeys.queues.all, event.queue);
    });
    socket.on("settings", (event) => {
      const replace = (list: Setting[] | undefined) =>
        list?.some((s) => s.key === event.setting.key)
          ? list.map((s) => (s.key === event.setting.key ? event.setting : s))
          : list && [...list, event.setting];
      client.setQueryData<Setting[]>(queryKeys.settings.all, replace);
      client.setQueryData<Setting[]>(queryKeys.publicSettings.all, (list) =>
        list?.some((s) => s.key === event.setting.key) ? replace(list) : list,
      );
    });
    socket.on("whatsapp", (event) => {
      if (event.action === "delete") return removeFromArray<Connection>(client, queryKeys.whatsapps.all, event.whatsappId);
      upsertInArray<Connection>(client, queryKeys.whatsapps.all, event.whatsapp);
    });
    socket.on("whatsappSession", (event) => {
      const { id, status, qrcode, retries, updatedAt } = event.session;
      client.setQueryData<Connection[]>(queryKeys.whatsapps.all, (list) =>
        list?.map((w) => (w.id === id ? { ...w, status, qrcode, retries, updatedAt } : w)),
      );
    });

    socket.on("ticket", (event) => handlers.current?.ticket(event));
    socket.on("appMessage", (event) => handlers.current?.appMessage(event));

    return () => {
      socket.removeAllListeners();
      disconnectSocket();
    };
  }, [client, userId, updateUser]);
}
