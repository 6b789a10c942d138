import { DASHBOARD_HOURS, type Dashboard, type DashboardQuery, isAdmin } from "@zapdesk/core";
import type { Db } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import { ticketListWhere } from "../tickets/ticket-list.repo.js";
import type { AuthUser } from "../users/users.repo.js";
import { dashboardFigures } from "./dashboard.repo.js";
import { waitingFigures } from "./waiting.js";

function fill(keys: readonly number[], rows: { key: number; count: number }[]) {
  return keys.map((key) => ({ key, count: rows.find((r) => r.key === key)?.count ?? 0 }));
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

function currentMonth(now: Date, tz: string): string {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit" }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value;
  return `${get("year")}-${get("month")}`;
}

/** The dashboard's counts and charts from one aggregation over the tickets the user may see. */
export function createDashboardService(deps: { db: Db; clock: Clock }) {
  return async function dashboard(actor: AuthUser, query: DashboardQuery): Promise<Dashboard> {
    const now = deps.clock.now();
    const month = query.month ?? currentMonth(now, query.tz);
    const access = ticketListWhere({ actor: { id: actor.id, admin: isAdmin(actor), queueIds: actor.queueIds }, showAll: true });
    const figures = await dashboardFigures(deps.db, { access, tz: query.tz, now, month });
    const waiting = await waitingFigures(deps.db, { access, tz: query.tz, month });
    const [year, monthNumber] = month.split("-").map(Number);
    const daysInMonth = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
    return {
      counts: { open: figures.counts.open ?? 0, pending: figures.counts.pending ?? 0, closed: figures.counts.closed ?? 0 },
      today: fill(DASHBOARD_HOURS, figures.byHour),
      month: fill(range(1, daysInMonth), figures.byDay),
      closedByMonth: fill(range(1, 12), figures.closedByMonth),
      closedByUser: figures.closedByUser,
      waiting,
    };
  };
}
