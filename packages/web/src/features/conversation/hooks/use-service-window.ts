import { SERVICE_WINDOW_MS, type Ticket } from "@zapdesk/core";
import { useEffect, useState } from "react";
import { capabilitiesOf } from "../../../lib/capabilities";

export type ServiceWindow =
  | { applies: false }
  | { applies: true; open: true; remainingMs: number }
  | { applies: true; open: false };

/** Meta's 24-hour rule for a ticket at a given moment: free-form only within 24 h of the customer's last message. */
export function serviceWindowAt(ticket: Pick<Ticket, "whatsapp" | "lastInboundAt">, now: number): ServiceWindow {
  if (!capabilitiesOf(ticket.whatsapp?.provider).serviceWindow) return { applies: false };
  const closesAt = ticket.lastInboundAt ? new Date(ticket.lastInboundAt).getTime() + SERVICE_WINDOW_MS : 0;
  return closesAt > now ? { applies: true, open: true, remainingMs: closesAt - now } : { applies: true, open: false };
}

const TICK_MS = 30_000;

/**
 * The window, re-evaluated every half minute so the countdown moves and the composer switches when
 * it closes. It reads the clock on every render: a customer message reopening a long-closed window
 * is measured from now, not from when the timer last ticked.
 */
export function useServiceWindow(ticket: Pick<Ticket, "whatsapp" | "lastInboundAt">): ServiceWindow {
  const [, setTick] = useState(0);
  const state = serviceWindowAt(ticket, Date.now());
  const remaining = state.applies && state.open ? state.remainingMs : null;
  useEffect(() => {
    if (remaining === null) return;
    // Tick sooner when the window closes before the next half minute.
    const timer = setTimeout(() => setTick((n) => n + 1), Math.min(TICK_MS, remaining + 50));
    return () => clearTimeout(timer);
  }, [remaining]);
  return state;
}

/** "23 h 05 min", "12 min", or under a minute. */
export function splitRemaining(ms: number): { hours: number; minutes: number } {
  const totalMinutes = Math.floor(ms / 60_000);
  return { hours: Math.floor(totalMinutes / 60), minutes: totalMinutes % 60 };
}
