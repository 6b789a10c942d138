import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import Edit from "@mui/icons-material/Edit";
import ScheduleIcon from "@mui/icons-material/Schedule";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { can, type Schedule } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAuth } from "../../../lib/auth";
import { toast } from "../../../lib/toast";
import { formatSendAt, useCancelSchedule, useSchedules } from "../api/schedules";
import { ScheduleDialog } from "./schedule-dialog";

/** A ticket's messages still to be sent: "Scheduled for <date>" bubbles under the conversation. */
export function PendingSchedules({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { data } = useSchedules({ ticketId, status: "scheduled" });
  const cancel = useCancelSchedule();
  const [editing, setEditing] = useState<Schedule | null>(null);
  const pending = data?.pages.flatMap((p) => p.schedules) ?? [];
  if (pending.length === 0) return null;
  const mayChange = (s: Schedule) => s.userId === user?.id || can(user, "schedules:manageAll");
  return (
    <Box
      aria-label={t("schedules.pending")}
      sx={{ display: "flex", flexDirection: "column", gap: 0.5, px: 2, py: 1, maxHeight: 180, overflowY: "auto" }}
    >
      {pending.map((s) => (
        <Paper
          key={s.id}
          variant="outlined"
          data-testid="scheduled-bubble"
          sx={{
            alignSelf: "flex-end",
            maxWidth: "70%",
            px: 1.5,
            py: 0.75,
            borderStyle: "dashed",
            borderColor: "primary.main",
            bgcolor: "action.hover",
          }}
        >
          <Box sx={{ display: "flex", alignItems: "center", gap: 0.5, color: "primary.main" }}>
            <ScheduleIcon sx={{ fontSize: 16 }} />
            <Typography variant="caption" sx={{ flex: 1 }}>
              {t("schedules.scheduledFor", { date: formatSendAt(s.sendAt) })}
              {s.user ? ` · ${s.user.name}` : ""}
            </Typography>
            {mayChange(s) && (
              <>
                <IconButton size="small" aria-label={t("schedules.edit")} onClick={() => setEditing(s)}>
                  <Edit sx={{ fontSize: 16 }} />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={t("schedules.cancel")}
                  onClick={() => cancel.mutate(s.id, { onSuccess: () => toast.success(t("schedules.cancelled")) })}
                >
                  <DeleteOutline sx={{ fontSize: 16 }} />
                </IconButton>
              </>
            )}
          </Box>
          <Typography variant="body2" sx={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
            {s.body}
          </Typography>
          {s.mediaName && (
            <Typography variant="caption" color="text.secondary">
              📎 {s.mediaName}
            </Typography>
          )}
        </Paper>
      ))}
      {editing && <ScheduleDialog open onClose={() => setEditing(null)} schedule={editing} />}
    </Box>
  );
}
