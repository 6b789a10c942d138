import { useQueryClient } from "@tanstack/react-query";
import type { RealtimePayloads } from "@zapdesk/core";
import { useEffect, useRef } from "react";
import { useAuth } from "./auth";
import { listEventHandlers } from "./realtime-cache";
import { connectSocket, disconnectSocket } from "./socket";

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

    const lists = listEventHandlers(client, updateUser, userId);
    socket.on("user", lists.user);
    socket.on("contact", lists.contact);
    socket.on("quickAnswer", lists.quickAnswer);
    socket.on("queue", lists.queue);
    socket.on("settings", lists.settings);
    socket.on("whatsapp", lists.whatsapp);
    socket.on("whatsappSession", lists.whatsappSession);

    socket.on("ticket", (event) => handlers.current?.ticket(event));
    socket.on("appMessage", (event) => handlers.current?.appMessage(event));

    return () => {
      socket.removeAllListeners();
      disconnectSocket();
    };
  }, [client, userId, updateUser]);
}
