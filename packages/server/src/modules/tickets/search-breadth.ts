import { foldWord } from "@zapdesk/core";
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";

/**
 * Issue 24: how a ticket search finds its tickets, from how many messages its words are in.
 *
 * A search usually collects every message with its words (the GIN index, one heap visit a message)
 * and then the tickets (search-hits.ts). For a common word that is most of the cost: "pedido" is in
 * 12% of the bench's 500k messages: 60,000 heap visits, 130–250 ms of the database's CPU. Such a
 * word is in most tickets, so walking the tickets newest first and looking into each one's messages
 * (newest first, until one has the words) fills the page and the capped count after a few thousand
 * messages read. For a rare word the walk is the dear one: it reads every message of the tickets it
 * passes on its way to the count's cap.
 *
 * The choice is PostgreSQL's own estimate, made in Node: the statistics ANALYZE keeps of
 * `messages.search` (its most common lexemes and the share of messages holding each, read at most
 * once every STATS_TTL_MS per database handle) give a share of the messages for the words, as the
 * planner estimates a tsquery (a prefix sums its lexemes', the words multiply). Both ways return the
 * same tickets and count; a wrong guess only costs time.
 */

export interface SearchStats {
  /** The most common lexemes of messages.search and the share of messages holding each. */
  lexemes: string[];
  shares: number[];
  /** The share of messages with words at all (media and the bot's messages have none). */
  present: number;
  /** Messages and tickets as pg_class estimates them. */
  messages: number;
  tickets: number;
}

/**
 * The lexemes of a search as `zapdesk_search_query` makes them, near enough for an estimate:
 * unaccented, lower case, split where the text parser splits a word (core's `foldWord`: at anything
 * but a letter or a digit).
 */
export const searchWords = (search: string): string[] => foldWord(search).split(" ").filter(Boolean);

/** The share of messages with every word of `search` (each a prefix), as the planner would estimate it. */
export function messageShare(search: string, stats: SearchStats): number {
  const words = [...new Set(searchWords(search))];
  if (!words.length) return 0;
  let share = stats.present;
  for (const word of words) {
    let wordShare = 0;
    for (let i = 0; i < stats.lexemes.length; i++) if (stats.lexemes[i].startsWith(word)) wordShare += stats.shares[i];
    // Not among the most common: rarer than all of them, so no walk.
    share *= Math.min(1, wordShare);
  }
  return share;
}

/**
 * Whether the walk reads fewer messages than the collection. The collection reads each matched
 * message once (share × messages). The walk stops at `wanted` matching tickets (the count's cap and
 * one): with m messages a ticket, a ticket has the words with chance 1 − (1 − share)^m, so it passes
 * `wanted` / that tickets (at most all of them), and in each reads about 1 / share messages before
 * one has the words (at most the ticket's m): cheaper while the tickets it looks into stay under
 * walkVisitLimit. Measured on the bench (scale 1, "pedido"): 11,500 messages walked against 60,000
 * collected, 31–40 ms against 181–212.
 */
export function walkIsCheaper(share: number, stats: SearchStats, wanted: number): boolean {
  if (!(share > 0) || !(stats.tickets > 0) || !(stats.messages > 0)) return false;
  const ticketHasWords = 1 - (1 - Math.min(share, 1)) ** (stats.messages / stats.tickets);
  return Math.min(wanted / ticketHasWords, stats.tickets) < walkVisitLimit(share, stats);
}

/**
 * How many tickets the walk may look into: as many as it can before it has read as many messages as
 * collecting would (the break-even of walkIsCheaper, which chooses the walk only when it expects to
 * stop sooner). Counted on the tickets that pass the user's access and filters, whose messages it
 * reads (search-hits.ts); those it passes by cost it a ticket row each. The statistics are the whole
 * table's: a word common in old tickets but absent from the newest ones ("natal" in June) would
 * otherwise walk every ticket, several times the collection's reads. Stopped there short of the
 * count's cap, the search collects instead (ticket-list.repo.ts): at worst about twice the
 * collection's cost.
 */
export function walkVisitLimit(share: number, stats: SearchStats): number {
  const perTicket = stats.messages / stats.tickets;
  return Math.ceil((share * stats.messages) / Math.min(perTicket, 1 / share));
}

/** How long the statistics are reused before they are read again. */
export const STATS_TTL_MS = 10 * 60_000;
/**
 * How long "no statistics" (a table not analyzed yet, as on a new install or after an import, or a
 * failed read) is kept: autovacuum analyzes soon, and until the read is retried every search collects.
 */
export const NO_STATS_TTL_MS = 30_000;

const cache = new WeakMap<Db, { at: number; stats: Promise<SearchStats | undefined>; missing: boolean }>();

/** messages.search's statistics (undefined before the table was first analyzed). */
export async function readSearchStats(db: Db): Promise<SearchStats | undefined> {
  const result = (await db.execute(sql`select s.most_common_elems::text::text[] as lexemes, s.most_common_elem_freqs as shares,
      1 - s.null_frac as present,
      (select greatest(reltuples, 0) from pg_class where oid = 'messages'::regclass) as messages,
      (select greatest(reltuples, 0) from pg_class where oid = 'tickets'::regclass) as tickets
    from pg_stats s
    where s.schemaname = (select n.nspname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.oid = 'messages'::regclass)
      and s.tablename = 'messages' and s.attname = 'search' and not s.inherited`)) as unknown as {
    rows: { lexemes: string[] | null; shares: number[] | null; present: number; messages: number; tickets: number }[];
  };
  const row = result.rows[0];
  if (!row?.lexemes || !row.shares) return undefined;
  return {
    lexemes: row.lexemes,
    // The frequencies array ends with three more (minimum, maximum, nulls' share): only one a lexeme counts.
    shares: row.shares.slice(0, row.lexemes.length).map(Number),
    present: Number(row.present),
    messages: Number(row.messages),
    tickets: Number(row.tickets),
  };
}

/**
 * How many tickets a search for `search` may walk (see above; walkVisitLimit), or 0 to collect its
 * messages, on statistics at most STATS_TTL_MS old (NO_STATS_TTL_MS while there were none).
 */
export async function searchWalkLimit(db: Db, search: string, wanted: number, now = Date.now()): Promise<number> {
  let entry = cache.get(db);
  if (!entry || now - entry.at > (entry.missing ? NO_STATS_TTL_MS : STATS_TTL_MS)) {
    // A failed read leaves the searches to collect, as before the walk, until the next read.
    const read = { at: now, stats: readSearchStats(db).catch(() => undefined), missing: false };
    cache.set(db, read);
    entry = read;
  }
  const stats = await entry.stats;
  entry.missing = !stats;
  if (!stats) return 0;
  const share = messageShare(search, stats);
  return walkIsCheaper(share, stats, wanted) ? walkVisitLimit(share, stats) : 0;
}
