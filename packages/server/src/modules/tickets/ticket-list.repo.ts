import { and, asc, desc, eq, gte, inArray, isNull, lt, or, type Placeholder, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../db/client.js";
import { opaque, prepared, readOf, readTogether } from "../../db/prepared.js";
import { contacts, messages, tickets } from "../../db/schema.js";
import { leaveOutBotHeld } from "../bots/bots.repo.js";
import { contactSearchMatch } from "../contacts/contacts.repo.js";
import { ticketTagsJson } from "../tags/tags.repo.js";
import { escapeLike } from "../users/users.repo.js";
import { type Binder, literals, opaquePlaceholders, ticketVisibleWhere } from "./access.js";
import { searchWalkLimit } from "./search-breadth.js";
import { cappedCount, countCapOf, countUpTo } from "./search-count.js";
import { searchHits } from "./search-hits.js";
import { tagFilter } from "./ticket-tags.js";
import { type JoinedTicket, joined } from "./tickets.repo.js";

/**
 * The ticket list (the inbox and the search, GET /tickets) and the WHERE every per-user ticket
 * query reads (`ticketListWhere`: exports, dashboards, the next ticket). Statements are prepared once
 * per shape of filter; the rows are tickets.repo.ts's `joined` tickets.
 */

export interface TicketFilter {
  /**
   * `hideChoosing` (issue 13): the tickets still at the greeting menu are left out (agents, setting
   * disabled); "setting": as the setting says, read by the statement (access.ts `ticketVisibleWhere`).
   */
  actor: { id: number; admin: boolean; queueIds: number[]; hideChoosing?: boolean | "setting" };
  status?: string;
  /** yyyy-MM-dd: created that (UTC) day. */
  date?: string;
  showAll: boolean;
  queueIds?: number[];
  withUnreadMessages?: boolean;
  search?: string;
  /** Issue 11: tickets with any of these tags (a non-empty list). */
  tagIds?: number[];
  /** Issue 13: "oldest" walks the same index backwards. */
  sort?: "newest" | "oldest";
  /** Issue 23 §5: only the tickets of contacts the actor owns. */
  myCustomers?: boolean;
}

/** The lateral row of a ticket a search found (searchPage): its id and the columns the list's order reads. */
const hit = alias(tickets, "hit");

/** The list's order: newest moved first, or (issue 13) oldest first; the id breaks ties. */
const listOrder = (
  sort: TicketFilter["sort"],
  from: Pick<typeof tickets | typeof hit, "waitingSince" | "updatedAt" | "id"> = tickets,
) =>
  sort === "oldest"
    ? // Waiting tickets by when their wait began (a new message doesn't move it); others have none.
      [asc(from.waitingSince), asc(from.updatedAt), asc(from.id)]
    : [desc(from.updatedAt), desc(from.id)];

/**
 * The queue filter (issue 12, items 16 and 20): the ticked queues and the tickets without one; the
 * user's own tickets whatever their queue; nothing ticked leaves only the user's own. No `queueIds`
 * at all is no filter.
 */
function queueFilter(bind: Binder, actorId: number, queueIds: number[]): SQL | undefined {
  const own = eq(tickets.userId, bind.value("actorId", actorId));
  if (!queueIds.length) return own;
  return or(own, bind.oneOf(tickets.queueId, "queueIds", queueIds), isNull(tickets.queueId));
}

/** The `createdAt` range of a yyyy-MM-dd (UTC) day. */
function dayRange(date: string): { start: Date; end: Date } {
  const start = new Date(`${date}T00:00:00.000Z`);
  return { start, end: new Date(start.getTime() + 24 * 60 * 60 * 1000) };
}

/**
 * The search's words as a tsquery (every word a prefix, unaccented), built once per statement (an
 * InitPlan): a prepared statement's generic plan would otherwise call zapdesk_search_query for
 * every row it checks.
 */
const searchQuery = (search: string, bind: Binder): SQL => sql`(select zapdesk_search_query(${bind.value("search", search)}))`;

/** A message whose words start with every word of the search (full text, GIN-indexed). */
const searchWords = (search: string, bind: Binder): SQL => sql`${messages.search} @@ ${searchQuery(search, bind)}`;

/**
 * A search finds the contact's name or number anywhere in them (contactSearchMatch, trigram), or
 * messages by word prefixes (the body is too big to rescan): the ids of the matching tickets, from
 * both indexes, before any other condition.
 */
function searchMatchIds(search: string, bind: Binder): SQL {
  return sql`select ${messages.ticketId} as id from ${messages} where ${searchWords(search, bind)}
      union select ${tickets.id} from ${tickets} where ${tickets.contactId} in (${contactIdsMatching(search, bind)})`;
}

/** The contacts whose name or number holds the search (trigram). */
const contactIdsMatching = (search: string, bind: Binder): SQL =>
  sql`select ${contacts.id} from ${contacts} where ${contactSearchMatch(bind.value("pattern", `%${escapeLike(search)}%`))}`;

/**
 * The messages of the ticket in hand (`tickets`) with the words. `coalesce` keeps the words off the
 * GIN index: not knowing the words, the planner would AND the whole search's bitmap (5,000 messages)
 * into every ticket's lookup, 1.4 ms each; the (ticket, time) index walks its messages instead.
 */
const ticketMessagesWithWords = (search: string, bind: Binder): SQL =>
  sql`${messages.ticketId} = ${tickets.id} and coalesce(${messages.search}, ''::tsvector) @@ ${searchQuery(search, bind)}`;

/** searchMatchIds for the ticket in hand, on `tickets` (the walk of search-hits.ts). */
const ticketSearchMatch = (search: string, bind: Binder): SQL =>
  sql`(${tickets.contactId} in (${contactIdsMatching(search, bind)})
    or coalesce((select true from ${messages} where ${ticketMessagesWithWords(search, bind)} limit 1), false))`;

const searchCondition = (search: string): SQL => inArray(tickets.id, sql`(${searchMatchIds(search, literals)})`);

/** The WHERE of the ticket list (design §4): access, then the inbox narrowing, then the user's filters and the search. */
export function ticketListWhere(filter: TicketFilter, bind: Binder = literals): SQL | undefined {
  return and(ticketConditions(filter, bind), filter.search ? searchCondition(filter.search) : undefined);
}

/** ticketListWhere without the search itself: what a ticket the search found must also meet. */
function ticketConditions(filter: TicketFilter, bind: Binder = literals): SQL | undefined {
  const { actor } = filter;
  const actorId = bind.value("actorId", actor.id);
  const conditions: (SQL | undefined)[] = [];
  // Access, and issue 13: a ticket at the greeting menu reaches an agent only when the setting allows it (routing.ts).
  conditions.push(ticketVisibleWhere(actor, bind));
  // Without showAll the inbox is the user's own tickets and the unassigned ones; a search looks further.
  if (!filter.showAll && !filter.search) conditions.push(or(eq(tickets.userId, actorId), isNull(tickets.userId)));
  if (filter.status) conditions.push(eq(tickets.status, bind.value("status", filter.status)));
  conditions.push(leaveOutBotHeld(actor, filter)); // issue 23 §4: held by a bot, not yet an agent's
  if (filter.queueIds) conditions.push(queueFilter(bind, filter.actor.id, filter.queueIds));
  if (filter.tagIds?.length) conditions.push(tagFilter(filter.tagIds, bind));
  if (filter.withUnreadMessages) conditions.push(sql`${tickets.unreadMessages} > 0`);
  if (filter.myCustomers)
    conditions.push(
      inArray(tickets.contactId, sql`(select ${contacts.id} from ${contacts} where ${contacts.ownerUserId} = ${actorId})`),
    );
  if (filter.date) {
    const { start, end } = dayRange(filter.date);
    conditions.push(gte(tickets.createdAt, bind.value("start", start)), lt(tickets.createdAt, bind.value("end", end)));
  }
  return and(...conditions);
}

/**
 * A search's page. The match is the expensive part, so it runs once (search-hits.ts: the page and
 * the capped count from it), and the contact, queue, user and connection are joined to the page's rows only.
 *
 * A matched ticket looked up is checked against the access and the filters (`offset 0` keeps the
 * lookup a nested loop, which the planner would otherwise flatten into a hash join over every
 * ticket the actor may see: docs/benchmarks.md, "Search: the access check, and the floor").
 *
 * Issue 24: the page's ids are a CTE (`found`) and its tickets are fetched by primary key
 * (`= any(array(…))`), whatever the planner guesses of the page's size: joined to the ids instead,
 * a plan that cannot see the limit hashed all 50k tickets. With that, and its values behind
 * subqueries (`searchValues`), the statement's generic plan is the custom one, so PostgreSQL keeps
 * it instead of planning the statement (2–3 ms, the cost of a search that matches little) on every
 * search. The words were already behind one (`searchQuery`): no plan ever saw them. Without the
 * others, a contact's name or a short page still tipped 32 executions of 180 back to custom plans.
 *
 * `visits` (listTickets asks search-breadth.ts): when not 0, the words are in so many messages that
 * walking the tickets newest first, looking into at most this many of those the filter leaves, finds
 * the page and the capped count sooner than collecting those messages; the statement holds both ways
 * and runs one.
 */
export function searchPage(
  db: Db,
  filter: TicketFilter & { search: string },
  page: { limit: number; offset: number },
  bind: Binder = literals,
  visits = 0,
) {
  const order = listOrder(filter.sort, hit);
  const hits = searchHits(db, {
    matchIds: searchMatchIds(filter.search, bind),
    ticketMatches: ticketSearchMatch(filter.search, bind),
    // Whether to walk follows from `visits`; as a literal statement's (contacts-search-plan.test.ts
    // explains one), a walk of 0 tickets is planned away, and its limit stays behind a subquery: a
    // plan that sees it read the contacts leg row by row.
    walk: sql`(${bind.value("visits", visits)} > 0)`,
    visits: sql`(select ${bind.value("visits", visits)}::bigint)`,
    conditions: ticketConditions(filter, bind),
    ...{ order, newestFirst: filter.sort !== "oldest", bind, page },
  });
  const found = db.$with("found").as(db.select({ id: hits.id, total: hits.total, stopped: hits.stopped }).from(hits));
  // The ticket's newest message with the words, for the page's rows only.
  const matchedMessageId = sql<number | null>`(select ${messages.id} from ${messages}
    where ${ticketMessagesWithWords(filter.search, bind)}
    order by ${messages.createdAt} desc, ${messages.id} desc limit 1)`.mapWith((id) => (id === null ? null : Number(id)));
  const total = sql<number>`(select ${found.total} from ${found} limit 1)`.mapWith(Number);
  const stopped = sql<boolean>`(select ${found.stopped} from ${found} limit 1)`;
  return joined(db.with(found), { total, stopped, matchedMessageId, tags: ticketTagsJson(tickets.id) })
    .where(sql`${tickets.id} = any(array(select ${found.id} from ${found}))`)
    .orderBy(...listOrder(filter.sort));
}

/** The search page prepared once per shape of filter, like the inbox's, its values opaque (see searchPage). */
const searchStatement = (db: Db, filter: TicketFilter & { search: string }) =>
  prepared(db, `tickets_search_${listShape(filter)}`, (db, name) =>
    searchPage(db, filter, { limit: 0, offset: 0 }, searchValues).prepare(name),
  );

export async function listTickets(
  db: Db,
  filter: TicketFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: JoinedTicket[]; count: number; countCapped: boolean }> {
  if (filter.search) {
    const search = { ...filter, search: filter.search };
    const countLimit = countCapOf(page) + 1;
    const walkLimit = filter.sort === "oldest" ? 0 : await searchWalkLimit(db, search.search, countLimit);
    const find = (visits: number) =>
      searchStatement(db, search).execute({
        ...listParams(filter, page),
        search: search.search,
        pattern: `%${escapeLike(search.search)}%`,
        countLimit,
        visits,
      });
    let rows = await find(walkLimit);
    // The walk stopped at its limit short of the count's cap, or found no row to tell: the words are
    // collected instead (search-breadth.ts walkVisitLimit).
    if (walkLimit > 0 && (rows.length === 0 || rows[0].stopped)) rows = await find(0);
    // A page past the end carries no count: it is counted apart.
    const total = rows.length ? rows[0].total : page.offset ? await countUpTo(db, ticketListWhere(filter), countCapOf(page)) : 0;
    return { rows: rows.map(({ total: _total, stopped: _stopped, ...row }) => row), ...cappedCount(total, countCapOf(page)) };
  }
  // The inbox walks an index in order for the page; the count is an index-only scan. Both in one
  // round trip on one connection (issue 24), the page's tags a column of its rows.
  const statement = inboxStatements(db, filter);
  const params = listParams(filter, page);
  const [rows, count] = await readTogether(db, [
    readOf(statement.page, params, (rows) => rows),
    readOf(statement.count, params, ([row]) => row!.value),
  ]);
  return { rows, count, countCapped: false };
}

/**
 * The inbox's page and count, prepared once per shape of filter (which conditions are present);
 * the values travel as parameters.
 */
function inboxStatements(db: Db, filter: TicketFilter) {
  return prepared(db, `tickets_inbox_${listShape(filter)}`, (db, name) => {
    // Issue 24: the values behind subqueries, so PostgreSQL keeps the generic plan instead of planning
    // every list anew (db/prepared.ts `opaque`, measured in docs/benchmarks.md).
    const where = ticketListWhere(filter, inboxValues);
    return {
      page: joined(db, { tags: ticketTagsJson(tickets.id) })
        .where(where)
        .orderBy(...listOrder(filter.sort))
        .limit(opaque("limit", "bigint") as unknown as Placeholder)
        .offset(opaque("offset", "bigint") as unknown as Placeholder)
        .prepare(name),
      count: db.select({ value: sql<number>`count(*)::int` }).from(tickets).where(where).prepare(`${name}_count`),
    };
  });
}

/** The types of the values a list's filter binds (ticketConditions), for its opaque placeholders. */
const filterValueTypes = {
  actorId: "int",
  actorQueueIds: "int[]",
  status: "text",
  queueIds: "int[]",
  tagIds: "int[]",
  start: "timestamptz",
  end: "timestamptz",
} as const;

const inboxValues = opaquePlaceholders(filterValueTypes);

const searchValues = opaquePlaceholders({
  ...filterValueTypes,
  ...{
    search: "text",
    pattern: "text",
    limit: "bigint",
    offset: "bigint",
    countLimit: "bigint",
    visits: "bigint",
  },
});

/** Which conditions a list's filter holds: its prepared statements are one per shape. */
function listShape(filter: TicketFilter): string {
  return [
    filter.actor.admin ? "a" : filter.actor.hideChoosing === "setting" ? "us" : filter.actor.hideChoosing ? "uh" : "u",
    leaveOutBotHeld(filter.actor, filter) ? "b" : "",
    filter.showAll ? "s" : "",
    filter.status ? "t" : "",
    filter.queueIds ? (filter.queueIds.length ? "q" : "o") : "",
    filter.withUnreadMessages ? "r" : "",
    filter.date ? "d" : "",
    filter.tagIds?.length ? "g" : "",
    filter.myCustomers ? "m" : "",
    filter.sort === "oldest" ? "-asc" : "",
  ].join("");
}

function listParams(filter: TicketFilter, page: { limit: number; offset: number }) {
  return {
    actorId: filter.actor.id,
    actorQueueIds: filter.actor.queueIds,
    status: filter.status,
    queueIds: filter.queueIds,
    tagIds: filter.tagIds,
    ...(filter.date ? dayRange(filter.date) : {}),
    ...page,
  };
}
