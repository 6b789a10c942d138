import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import Paper from "@mui/material/Paper";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { DEBOUNCE_MS, type QuickAnswer } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { useDebounce } from "../../../lib/use-debounce";
import { searchQuickAnswers } from "../api/message-commands";
import { messageKeys } from "../api/message-keys";

/**
 * Spec §5: text starting with '/' searches quick answers; each shows as 'shortcut - message'.
 * One search per pause in typing, not one per keystroke; the last answers stay meanwhile.
 */
export function QuickAnswersList({ search, onPick }: { search: string; onPick(answer: QuickAnswer): void }) {
  const { t } = useTranslation();
  const debounced = useDebounce<string | null>(search, DEBOUNCE_MS, null);
  const { data = [] } = useQuery({
    queryKey: messageKeys.quickAnswers(debounced ?? ""),
    queryFn: () => searchQuickAnswers(debounced ?? ""),
    enabled: debounced !== null,
    staleTime: 10_000,
    placeholderData: keepPreviousData,
  });
  if (data.length === 0) return null;
  return (
    <Paper
      elevation={3}
      sx={{ position: "absolute", bottom: "100%", left: 0, right: 0, maxHeight: 240, overflowY: "auto", zIndex: 2 }}
    >
      <List dense aria-label={t("conversation.input.quickAnswers")} role="listbox">
        {data.map((answer) => (
          <ListItemButton key={answer.id} role="option" onClick={() => onPick(answer)}>
            {`${answer.shortcut} - ${answer.message}`}
          </ListItemButton>
        ))}
      </List>
    </Paper>
  );
}
