import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { tickets } from "../../db/schema.js";
import type { Binder } from "./access.js";
import { countCapOf } from "./search-count.js";

interface HitsOptions {
  /** The ids of the tickets the search matched (messages' words, contacts' names), before any other condition. */
  matchIds: SQL;
  /** The same match for one ticket, on `tickets` (for the walk). */
  ticketMatches: SQL;
  /**
   * A boolean value (search-breadth.ts): the tickets are walked newest first, each one's messages
   * looked into, instead of `matchIds` collected. Only with the newest-first order.
   */
  walk: SQL;
  /** How many tickets that pass `conditions` the walk may look into, newest first (search-breadth.ts walkVisitLimit). */
  visits: SQL;
  /** What a matched ticket must also meet: access and the user's filters, on `tickets`. */
  conditions: SQL | undefined;
  /** The list's order on the lookups' `hit` rows. */
  order: SQL[];
  /** Newest first: the order tickets_updated_idx walks. */
  newestFirst: boolean;
  bind: Binder;
  page: { limit: number; offset: number };
}

/**
 * A search's page of ticket ids and its count (issue 24), found one of two ways, both in the
 * statement and one run (a one-time filter on `walk`, which search-breadth.ts decides):
 *
 * - For a common word (`walk`), the tickets are walked newest first on tickets_updated_idx, each
 *   kept if it passes the checks and matches (its contact, or its messages read newest first until
 *   one has the words), until the count's cap and one are found: the page is the walk's first rows
 *   and the count its length. `limit 1` keeps each ticket's look a nested loop: as an `exists`, the
 *   planner hashed every message with the words, the collection this avoids. The walk looks into at most
 *   `visits` tickets that pass the checks; `stopped` tells that it found fewer than the cap there and
 *   that it used them all (older such tickets may be left), so its answer may be incomplete and the
 *   caller collects instead.
 *
 * Otherwise the matched ids are computed once (`matched`):
 *
 * - The count looks matched tickets up by primary key and stops at the cap (search-count.ts): a
 *   broad search no longer checks every match to count them.
 * - The page has two plans and runs one, chosen by a one-time filter on the number of matches:
 *   when they are dense enough, the tickets are walked newest first on tickets_updated_idx, each
 *   kept if it is in `matched` (a hashed set) and passes the checks, until the page is full (a word
 *   in 9% of tickets: 700 tickets walked instead of 4,600 looked up); otherwise, and for the
 *   oldest-first order, each matched ticket is looked up and the page sorted, as before. The walk
 *   needs about (offset + limit) × tickets / matches rows, the lookups one per match: the walk is
 *   taken when matches² > 2 × (offset + limit) × tickets (tickets as pg_class estimates them).
 */
export function searchHits(db: Db, options: HitsOptions) {
  const { matchIds, ticketMatches, walk, visits, conditions, order, newestFirst, bind, page } = options;
  const checks = conditions ? sql` and ${conditions}` : sql``;
  const window = () => sql`limit ${bind.value("limit", page.limit)} offset ${bind.value("offset", page.offset)}`;
  const lookup = (columns: SQL) => sql`matched cross join lateral
    (select ${columns} from ${tickets} where ${tickets.id} = matched.id${checks} offset 0) as hit`;
  const hitColumns = sql`${tickets.id}, ${tickets.updatedAt}, ${tickets.waitingSince}`;
  const lookups = sql`select hit.id from ${lookup(hitColumns)}`;
  const dense = sql`(select count(*) from matched) ^ 2 > 2 * (${bind.value("offset", page.offset)}::int + ${bind.value("limit", page.limit)}::int)
    * (select greatest(reltuples, 0) from pg_class where oid = 'tickets'::regclass)`;
  const pageIds = newestFirst
    ? sql`(select ${tickets.id} from ${tickets} where (${tickets.id} in (select id from matched)) is true${checks} and ${dense}
          order by ${tickets.updatedAt} desc nulls first, ${tickets.id} desc nulls first ${window()})
        union all
        (${lookups} where not ${dense} order by ${sql.join(order, sql`, `)} ${window()})`
    : sql`${lookups} order by ${sql.join(order, sql`, `)} ${window()}`;
  const countLimit = () => bind.value("countLimit", countCapOf(page) + 1);
  const total = sql`(select count(*)::int from (select 1 from ${lookup(sql`${tickets.id}`)} limit ${countLimit()}) as counted)`;
  const collected = sql`(with matched as materialized (select id from (${matchIds}) as matched_ids where not ${walk})
    select page_ids.id, ${total} as total, false as stopped from (${pageIds}) as page_ids)`;
  const newest = sql`${tickets.updatedAt} desc nulls first, ${tickets.id} desc nulls first`;
  // The newest `visits` tickets that pass the checks, numbered (a subquery with its own limit: the
  // match cannot pass it), named as the table, so that the match reads them as it reads `tickets`.
  // The limit counts the tickets whose messages the walk looks into: an agent who sees half the
  // tickets walks past twice as many, reading as many messages. The last of them comes out of the
  // walk even when it does not match: whether the walk reached it tells whether the limit ended the
  // walk (short of the cap: `stopped`) or the tickets did, without a second scan. It takes a place
  // among the cap and one only when fewer matched. The subqueries keep the index's order, so the walk
  // stops at the cap (and one); `offset 0` keeps the match one look a ticket (flattened, the filter
  // and the column each ran it). `walk` gates them: a statement that collects plans no part of the walk.
  const visited = sql`select ${tickets.id}, ${tickets.updatedAt}, ${tickets.contactId},
      row_number() over (order by ${newest}) as visit
    from ${tickets} where ${walk}${checks} order by ${newest} limit ${visits}`;
  const looked = sql`select ${tickets.id}, ${tickets.updatedAt}, visit, (${walk} and ${ticketMatches}) as hit
    from (${visited}) as ${tickets} where ${walk} order by ${newest} offset 0`;
  const walked = sql`select looked.id, looked.updated_at, looked.hit, looked.visit from (${looked}) as looked
    where looked.hit or looked.visit = ${visits}
    order by looked.updated_at desc nulls first, looked.id desc nulls first limit ${countLimit()}`;
  const counted = sql`select walked.*, (count(*) filter (where walked.hit) over ())::int as hits,
      max(walked.visit) over () as last_visit
    from (${walked}) as walked`;
  const found = newestFirst
    ? sql`${collected} union all (select counted.id, least(counted.hits, ${countLimit()}) as total,
          counted.hits < ${countLimit()} and counted.last_visit >= ${visits} as stopped
        from (${counted}) as counted where counted.hit
        order by counted.updated_at desc nulls first, counted.id desc nulls first ${window()})`
    : collected;
  return db
    .select({
      id: sql<number>`page.id`.as("hit_id"),
      total: sql<number>`page.total`.as("total"),
      stopped: sql<boolean>`page.stopped`.as("stopped"),
    })
    .from(sql`(${found}) as page`)
    .as("hits");
}
