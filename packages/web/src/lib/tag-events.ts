import type { QueryClient } from "@tanstack/react-query";
import type { RealtimePayloads, Tag } from "@zapdesk/core";
import { queryKeys } from "./query-keys";
import { updateQueries } from "./query-updates";

const byName = (a: Tag, b: Tag) => a.name.localeCompare(b.name, undefined, { sensitivity: "base" }) || a.id - b.id;

/**
 * Replace (or, with `null`, drop) one tag wherever cached data carries it: the `tags` of tickets
 * and contacts in lists, pages and details. Unchanged branches keep their identity.
 */
export function patchTagEverywhere(value: unknown, tagId: number, replacement: Tag | null): unknown {
  if (Array.isArray(value)) {
    let changed = false;
    const next = value.map((item) => {
      const patched = patchTagEverywhere(item, tagId, replacement);
      if (patched !== item) changed = true;
      return patched;
    });
    return changed ? next : value;
  }
  if (!value || typeof value !== "object") return value;
  let changed = false;
  const next: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    let patched = item;
    if (key === "tags" && Array.isArray(item) && item.some((t: Tag) => t?.id === tagId)) {
      patched = replacement ? item.map((t: Tag) => (t.id === tagId ? replacement : t)) : item.filter((t: Tag) => t.id !== tagId);
    } else if (item && typeof item === "object") {
      patched = patchTagEverywhere(item, tagId, replacement);
    }
    if (patched !== item) changed = true;
    next[key] = patched;
  }
  return changed ? next : value;
}

/** The `tag` event (issue 11): the tag list follows, and every ticket or contact in the cache with it. */
export function applyTagEvent(client: QueryClient, event: RealtimePayloads["tag"]): void {
  if (event.action === "create") {
    updateQueries<{ tags: Tag[] }>(client, { queryKey: queryKeys.tags.all, exact: true }, (data) =>
      data.tags.some((t) => t.id === event.tag.id) ? data : { tags: [...data.tags, event.tag].sort(byName) },
    );
    return;
  }
  const tagId = event.action === "delete" ? event.tagId : event.tag.id;
  const replacement = event.action === "delete" ? null : event.tag;
  updateQueries<{ tags: Tag[] }>(client, { queryKey: queryKeys.tags.all, exact: true }, (data) => {
    const rest = data.tags.filter((t) => t.id !== tagId);
    return { tags: replacement ? [...rest, replacement].sort(byName) : rest };
  });
  updateQueries<unknown>(client, { predicate: (q) => q.queryKey[0] !== "tags" }, (data) =>
    patchTagEverywhere(data, tagId, replacement),
  );
}
