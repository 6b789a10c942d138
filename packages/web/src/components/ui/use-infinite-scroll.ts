import type { UIEvent } from "react";

/** Spec §9: the next page loads within 100 px of the bottom, when there is one. */
export function useInfiniteScroll(options: { hasNextPage: boolean; isFetching: boolean; fetchNextPage(): unknown }) {
  return (event: UIEvent<HTMLDivElement>) => {
    if (!options.hasNextPage || options.isFetching) return;
    const { scrollTop, scrollHeight, clientHeight } = event.currentTarget;
    if (scrollHeight - (scrollTop + 100) < clientHeight) options.fetchNextPage();
  };
}
