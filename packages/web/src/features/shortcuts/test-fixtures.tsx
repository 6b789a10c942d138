import type { Ticket } from "@zapdesk/core";
import { useLocation } from "react-router";
import { AGENT } from "../../testing/fake-api";
import { aTicket } from "../../testing/fixtures";

export const QUEUE = { id: 3, name: "Sales", color: "#1273DE" };
export const ME = { ...AGENT, queues: [QUEUE] };

/** The shared ticket fixture, in this suite's queue and assigned to its agent. */
export function makeTicket(id: number, over: Partial<Ticket> = {}): Ticket {
  return aTicket({
    id,
    lastMessage: `last ${id}`,
    userId: ME.id,
    queueId: QUEUE.id,
    contactId: id,
    contact: { id, name: `Customer ${id}`, number: `55110000${id}`, profilePicUrl: "" },
    queue: QUEUE,
    user: { id: ME.id, name: ME.name },
    whatsapp: { id: 1, name: "Main", provider: "simulator" },
    ...over,
  });
}

export const waiting = (id: number, over: Partial<Ticket> = {}) =>
  makeTicket(id, { status: "pending", userId: null, user: null, ...over });

/** Where the app navigated to (path and query). */
export function Location() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname + location.search}</output>;
}
