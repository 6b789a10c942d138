import { useQuery } from "@tanstack/react-query";
import type { Contact, User } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { useDebounce } from "../../../lib/use-debounce";

/** Spec §5: the transfer and new-ticket lookups start at 3 characters, 500 ms after typing stops. */
export const MIN_SEARCH_LENGTH = 3;

function useLookup<T>(kind: string, path: string, field: string, text: string) {
  const search = useDebounce(text.trim().toLowerCase());
  const enabled = search.length >= MIN_SEARCH_LENGTH;
  const query = useQuery({
    queryKey: ["tickets", "lookup", kind, search],
    queryFn: async () => (await api.get<Record<string, T[]>>(path, { searchParam: search }))[field] ?? [],
    enabled,
  });
  return { options: enabled ? (query.data ?? []) : [], loading: enabled && query.isFetching, search };
}

export const useContactLookup = (text: string) => useLookup<Contact>("contacts", "/contacts", "contacts", text);
export const useUserLookup = (text: string) => useLookup<User>("users", "/users", "users", text);
