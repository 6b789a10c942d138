import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { Dashboard } from "@zapdesk/core";
import { useTranslation } from "react-i18next";

/** "2 d 3 h", "1 h 05 min", "22 min", "40 s". */
export function formatWait(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${String(minutes % 60).padStart(2, "0")} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** Business hours (issue 11): the month's average wait for a first answer, in the queues' business time. */
export function WaitingCard({ waiting }: { waiting: Dashboard["waiting"] | undefined }) {
  const { t } = useTranslation();
  if (!waiting) return null;
  const label = t("businessHours.dashboard.title");
  return (
    <Paper variant="outlined" sx={{ p: 2, flex: 1, minWidth: 180 }} role="group" aria-label={label}>
      <Typography variant="subtitle1" color="primary">
        {label}
      </Typography>
      <Typography variant="h4" data-testid="waiting-average">
        {waiting.averageMs === null ? "—" : formatWait(waiting.averageMs)}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {t("businessHours.dashboard.detail", { answered: waiting.answered, unanswered: waiting.unanswered })}
      </Typography>
    </Paper>
  );
}
