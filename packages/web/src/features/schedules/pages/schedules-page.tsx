import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import Edit from "@mui/icons-material/Edit";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { can, SCHEDULE_STATUSES, type Schedule, type ScheduleStatus, type User } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { PageContainer } from "../../../components/ui/page-container";
import { ROW_ACTIONS_SX } from "../../../components/ui/row-actions";
import { TableLoadingRow } from "../../../components/ui/table-loading-row";
import { useInfiniteScroll } from "../../../components/ui/use-infinite-scroll";
import { api } from "../../../lib/api-client";
import { useAuth } from "../../../lib/auth";
import { toast } from "../../../lib/toast";
import { formatSendAt, useCancelSchedule, useSchedules } from "../api/schedules";
import { ScheduleDialog } from "../components/schedule-dialog";
import { ScheduleStatusChip } from "../components/status-chip";

const COLUMNS = 7;

/** The agents to filter by (the first page of users; an agent who may not list them filters by "mine"). */
function useAgents() {
  return useQuery({
    queryKey: ["schedules", "agents"],
    queryFn: async () => (await api.get<{ users: User[] }>("/users", { pageNumber: 1 })).users,
    retry: false,
  });
}

/** The "Agendamento" tool: every scheduled message the user may see, filtered by agent and status. */
export function SchedulesPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [status, setStatus] = useState<ScheduleStatus | "">("");
  const [agent, setAgent] = useState<number | "">("");
  const agents = useAgents();
  const { data, isLoading, hasNextPage, isFetchingNextPage, fetchNextPage } = useSchedules({
    status: status || undefined,
    userId: agent || undefined,
  });
  const schedules = data?.pages.flatMap((p) => p.schedules) ?? [];
  const onScroll = useInfiniteScroll({ hasNextPage, isFetching: isFetchingNextPage, fetchNextPage });
  const cancel = useCancelSchedule();
  const [editing, setEditing] = useState<Schedule | null>(null);
  const [cancelling, setCancelling] = useState<Schedule | null>(null);
  const mayChange = (s: Schedule) => s.status === "scheduled" && (s.userId === user?.id || can(user, "schedules:manageAll"));
  const agentOptions = agents.data ?? (user ? [user] : []);

  return (
    <PageContainer
      title={t("schedules.title")}
      onScroll={onScroll}
      actions={
        <>
          <TextField
            select
            size="small"
            label={t("schedules.filters.agent")}
            value={agent}
            onChange={(e) => setAgent(e.target.value === "" ? "" : Number(e.target.value))}
            sx={{ minWidth: 180 }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">{t("schedules.filters.all")}</MenuItem>
            {agentOptions.map((u) => (
              <MenuItem key={u.id} value={u.id}>
                {u.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label={t("schedules.filters.status")}
            value={status}
            onChange={(e) => setStatus(e.target.value as ScheduleStatus | "")}
            sx={{ minWidth: 160 }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">{t("schedules.filters.all")}</MenuItem>
            {SCHEDULE_STATUSES.map((s) => (
              <MenuItem key={s} value={s}>
                {t(`schedules.status.${s}`)}
              </MenuItem>
            ))}
          </TextField>
        </>
      }
    >
      {editing && <ScheduleDialog open onClose={() => setEditing(null)} schedule={editing} />}
      <ConfirmDialog
        open={!!cancelling}
        title={t("schedules.confirmCancel.title")}
        onClose={() => setCancelling(null)}
        onConfirm={() => cancelling && cancel.mutate(cancelling.id, { onSuccess: () => toast.success(t("schedules.cancelled")) })}
      >
        {t("schedules.confirmCancel.message")}
      </ConfirmDialog>
      <Table size="small" aria-label={t("schedules.title")}>
        <TableHead>
          <TableRow>
            <TableCell>{t("schedules.table.contact")}</TableCell>
            <TableCell>{t("schedules.table.ticket")}</TableCell>
            <TableCell>{t("schedules.table.body")}</TableCell>
            <TableCell>{t("schedules.table.sendAt")}</TableCell>
            <TableCell>{t("schedules.table.agent")}</TableCell>
            <TableCell>{t("schedules.table.status")}</TableCell>
            <TableCell align="center" sx={ROW_ACTIONS_SX}>
              {t("schedules.table.actions")}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {schedules.map((s) => (
            <TableRow key={s.id} data-testid="schedule-row">
              <TableCell>{s.contact.name}</TableCell>
              <TableCell>
                {s.ticketId ? (
                  <RouterLink to={`/tickets/${s.ticketId}`}>#{s.ticketId}</RouterLink>
                ) : (
                  <Typography variant="body2" color="text.secondary">
                    {t("schedules.table.newTicket")}
                  </Typography>
                )}
              </TableCell>
              <TableCell sx={{ maxWidth: 360, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>
                {s.body || s.mediaName}
              </TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>{formatSendAt(s.sendAt)}</TableCell>
              <TableCell>{s.user?.name ?? "—"}</TableCell>
              <TableCell>
                <ScheduleStatusChip status={s.status} title={s.error} />
                {s.status === "failed" && s.error && (
                  <Typography variant="caption" color="error" sx={{ display: "block" }}>
                    {s.error}
                  </Typography>
                )}
              </TableCell>
              <TableCell align="center" sx={ROW_ACTIONS_SX}>
                {mayChange(s) && (
                  <>
                    <IconButton size="small" aria-label={t("schedules.edit")} onClick={() => setEditing(s)}>
                      <Edit />
                    </IconButton>
                    <IconButton size="small" aria-label={t("schedules.cancel")} onClick={() => setCancelling(s)}>
                      <DeleteOutline />
                    </IconButton>
                  </>
                )}
              </TableCell>
            </TableRow>
          ))}
          {!isLoading && schedules.length === 0 && (
            <TableRow>
              <TableCell colSpan={COLUMNS} align="center">
                <Typography color="text.secondary">{t("schedules.empty")}</Typography>
              </TableCell>
            </TableRow>
          )}
          {(isLoading || isFetchingNextPage) && <TableLoadingRow columns={COLUMNS} />}
        </TableBody>
      </Table>
    </PageContainer>
  );
}
