import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import Paper from "@mui/material/Paper";
import { useQuery } from "@tanstack/react-query";
import type { QuickAnswer } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { searchQuickAnswers } from "../api/message-commands";
import { messageKeys } from "../api/message-keys";

/** Spec §5: text starting with '/' searches quick answers; each shows as 'shortcut - message'. */
export function QuickAnswersList({ search, onPick }: { search: string; onPick(answer: QuickAnswer): void }) {
  const { t } = useTranslation();
  const { data = [] } = useQuery({
    queryKey: messageKeys.quickAnswers(search),
    queryFn: () => searchQuickAnswers(search),
    staleTime: 10_000,
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
