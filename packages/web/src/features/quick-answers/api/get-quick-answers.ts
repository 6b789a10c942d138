import type { QuickAnswer } from "@zapdesk/core";
import { usePagedList } from "../../../lib/paged-list";
import { queryKeys } from "../../../lib/query-keys";

export const useQuickAnswers = (search: string) =>
  usePagedList<"quickAnswers", QuickAnswer>(queryKeys.quickAnswers.list(search), "/quickAnswers", search);
