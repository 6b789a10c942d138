import type { Ticket } from "@zapdesk/core";
import { useAuth } from "../../lib/auth";
import { focusedWaitingRow } from "./list-navigation";
import { useShortcut } from "./registry";

interface TicketShortcutActions {
  accept(userId: number): void;
  resolve(userId: number): void;
  transfer(): void;
  /** A change is on its way: a second key press must not send another. */
  busy: boolean;
}

/** The open ticket's keys (issue 13): `a` accept (pending), `e` resolve (open), `t` transfer (not closed). */
export function useTicketShortcuts(ticket: Pick<Ticket, "status">, actions: TicketShortcutActions): void {
  const { user } = useAuth();
  useShortcut("a", () => {
    // A waiting row with the focus is the one to accept (the list's `a`).
    if (!user || ticket.status !== "pending" || focusedWaitingRow()) return false;
    if (!actions.busy) actions.accept(user.id);
  });
  useShortcut("e", () => {
    if (!user || ticket.status !== "open") return false;
    if (!actions.busy) actions.resolve(user.id);
  });
  useShortcut("t", () => {
    if (ticket.status === "closed") return false;
    actions.transfer();
  });
}
