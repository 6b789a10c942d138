import type { InfiniteData, QueryClient, QueryKey } from "@tanstack/react-query";
import { updateQueries } from "./query-updates";

interface Identified {
  id: number;
}

/** A page of a paginated list: `{ users|contacts|quickAnswers, count, hasMore }` (design §3). */
export type Page<K extends string, T> = { [P in K]: T[] } & { count: number; hasMore: boolean };

/** The search text is the last element of every list key (see query-keys.ts). */
function searchOf(key: QueryKey): string {
  const last = key[key.length - 1];
  return typeof last === "string" ? last.toLowerCase() : "";
}

/**
 * Insert or replace an item in every cached page of a list (spec §4 "Lists").
 * A new item goes to the top of lists whose search it matches; an updated one is
 * replaced where it already is. A list being fetched gets it again when its answer lands.
 */
export function upsertInPages<K extends string, T extends Identified>(
  client: QueryClient,
  prefix: QueryKey,
  field: K,
  item: T,
  matches: (item: T, search: string) => boolean,
): void {
  updateQueries<InfiniteData<Page<K, T>>>(client, { queryKey: prefix }, (data, key) => {
    if (!data.pages?.length) return data;
    const present = data.pages.some((page) => page[field].some((x) => x.id === item.id));
    if (present) {
      return {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          [field]: page[field].map((x) => (x.id === item.id ? { ...x, ...item } : x)),
        })),
      };
    }
    if (!matches(item, searchOf(key))) return data;
    const [first, ...rest] = data.pages;
    return { ...data, pages: [{ ...first, [field]: [item, ...first[field]], count: first.count + 1 }, ...rest] };
  });
}

export function removeFromPages<K extends string, T extends Identified>(
  client: QueryClient,
  prefix: QueryKey,
  field: K,
  id: number,
): void {
  updateQueries<InfiniteData<Page<K, T>>>(client, { queryKey: prefix }, (data) => {
    if (!data.pages?.some((page) => page[field].some((x) => x.id === id))) return data;
    return { ...data, pages: data.pages.map((page) => ({ ...page, [field]: page[field].filter((x) => x.id !== id) })) };
  });
}

export function upsertInArray<T extends Identified>(client: QueryClient, key: QueryKey, item: T): void {
  updateQueries<T[]>(client, { queryKey: key, exact: true }, (list) =>
    list.some((x) => x.id === item.id) ? list.map((x) => (x.id === item.id ? { ...x, ...item } : x)) : [...list, item],
  );
}

export function removeFromArray<T extends Identified>(client: QueryClient, key: QueryKey, id: number): void {
  updateQueries<T[]>(client, { queryKey: key, exact: true }, (list) =>
    list.some((x) => x.id === id) ? list.filter((x) => x.id !== id) : list,
  );
}

/** Case-insensitive match on any of the given texts: how the server searches too. */
export function textMatches(search: string, ...texts: (string | null | undefined)[]): boolean {
  if (!search) return true;
  return texts.some((text) => text?.toLowerCase().includes(search));
}
