import Chip from "@mui/material/Chip";
import type { ScheduleStatus } from "@zapdesk/core";
import { useTranslation } from "react-i18next";

const COLORS = { scheduled: "info", sent: "success", failed: "error", cancelled: "default" } as const;

export function ScheduleStatusChip({ status, title }: { status: ScheduleStatus; title?: string | null }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      color={COLORS[status]}
      label={t(`schedules.status.${status}`)}
      title={title ?? undefined}
      data-testid="schedule-status"
    />
  );
}
