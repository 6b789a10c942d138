import type { Query, QueryClient, QueryFilters, QueryKey } from "@tanstack/react-query";

/**
 * Realtime events change what is cached; a fetch under way when an event comes may have read the
 * server before the change, and its answer, landing after, would put the cache back (an agent
 * opening the ticket list while automatic assignment gives them a ticket never saw it in the list).
 * So an event's update is applied to what is cached now and again to what a fetch under way brings,
 * and a query fetching across a (re)connection of the socket is fetched once more when it lands.
 */
interface Waiting {
  updates: ((data: unknown) => unknown)[];
  refetch: boolean;
}

const waitingByClient = new WeakMap<QueryClient, Map<Query, Waiting>>();

/** Once a waited-for fetch settles: its answer takes the updates (and is fetched again if asked). */
function settleOnLanding(client: QueryClient, waiting: Map<Query, Waiting>): void {
  client.getQueryCache().subscribe((event) => {
    const { query } = event;
    const entry = waiting.get(query);
    if (!entry) return;
    if (event.type === "removed") return void waiting.delete(query);
    if (event.type !== "updated" || query.state.fetchStatus !== "idle") return;
    waiting.delete(query);
    // A failed fetch keeps what was cached (updated already) and is fetched again when shown; a
    // cancelled one goes back to it. Only an answer that landed can be behind the events.
    if (event.action.type !== "success" || event.action.manual) return;
    const landed = query.state.data;
    const data = entry.updates.reduce((current, update) => update(current), landed);
    if (data !== landed) client.setQueryData(query.queryKey, data);
    if (entry.refetch) void client.invalidateQueries({ queryKey: query.queryKey, exact: true });
  });
}

function waitingFor(client: QueryClient, query: Query): Waiting {
  let waiting = waitingByClient.get(client);
  if (!waiting) {
    waiting = new Map();
    waitingByClient.set(client, waiting);
    settleOnLanding(client, waiting);
  }
  let entry = waiting.get(query);
  if (!entry) {
    entry = { updates: [], refetch: false };
    waiting.set(query, entry);
  }
  return entry;
}

const inFlight = (query: Query) => query.state.fetchStatus !== "idle";

/**
 * `setQueriesData` for realtime events: `update` is given each matching query's data (never
 * undefined) now, and again the answer of a fetch under way when it lands. It must be idempotent
 * (an upsert, a removal), as the answer may already hold the change.
 */
export function updateQueries<T>(client: QueryClient, filters: QueryFilters, update: (data: T, queryKey: QueryKey) => T): void {
  for (const query of client.getQueryCache().findAll(filters)) {
    const { queryKey } = query;
    const data = query.state.data as T | undefined;
    // Under way when the event came (not a fetch the update itself starts, as the bell's may).
    const fetching = inFlight(query);
    if (data !== undefined) {
      const next = update(data, queryKey);
      if (next !== data) client.setQueryData(queryKey, next);
    }
    if (fetching) waitingFor(client, query).updates.push((landed) => update(landed as T, queryKey));
  }
}

/** The queries being fetched now (all, or those matching) are fetched again once their answer lands. */
export function refetchWhenLanded(client: QueryClient, filters: QueryFilters = {}): void {
  for (const query of client.getQueryCache().findAll(filters)) {
    if (inFlight(query)) waitingFor(client, query).refetch = true;
  }
}
