import type { User } from "@zapdesk/core";
import { usePagedList } from "../../../lib/paged-list";
import { queryKeys } from "../../../lib/query-keys";

export const useUsers = (search: string) => usePagedList<"users", User>(queryKeys.users.list(search), "/users", search);
