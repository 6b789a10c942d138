import { useInfiniteQuery } from "@tanstack/react-query";
import { api } from "./api-client";
import type { Page } from "./list-cache";

/**
 * A searchable, paginated list (1-based pageNumber, design §3). gcTime 0 drops a
 * list once its search is left, so a new search always starts again at page 1.
 */
export function usePagedList<K extends string, T>(key: readonly unknown[], path: string, search: string) {
  return useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam }) => api.get<Page<K, T>>(path, { searchParam: search, pageNumber: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    gcTime: 0,
  });
}
