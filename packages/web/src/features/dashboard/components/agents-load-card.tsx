import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { PresenceStatus } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { useAgentsLoad } from "../../routing/api";
import { PresenceDot } from "../../routing/presence-dot";

const ORDER: Record<PresenceStatus, number> = { online: 0, away: 1, offline: 2 };

/**
 * Issue 13: agents' current load and status: presence, open tickets, pending tickets in their
 * queues. Admins see everyone; an agent sees the colleagues of their queues (the server decides).
 */
export function AgentsLoadCard() {
  const { t } = useTranslation();
  const { data: agents = [] } = useAgentsLoad();
  const label = t("routing.dashboard.title");
  const rows = [...agents].sort((a, b) => ORDER[a.status] - ORDER[b.status] || a.name.localeCompare(b.name));
  return (
    <Paper variant="outlined" sx={{ p: 2 }} role="group" aria-label={label}>
      <Typography variant="subtitle1" color="primary" gutterBottom>
        {label}
      </Typography>
      {rows.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t("routing.dashboard.empty")}
        </Typography>
      ) : (
        <Table size="small" aria-label={label}>
          <TableHead>
            <TableRow>
              <TableCell>{t("routing.dashboard.agent")}</TableCell>
              <TableCell>{t("routing.dashboard.status")}</TableCell>
              <TableCell align="right">{t("routing.dashboard.open")}</TableCell>
              <TableCell align="right">{t("routing.dashboard.pending")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((agent) => (
              <TableRow key={agent.userId} data-testid={`agent-load-${agent.userId}`}>
                <TableCell>{agent.name}</TableCell>
                <TableCell>
                  <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
                    <PresenceDot status={agent.status} />
                    <span>{t(`routing.presence.${agent.status}`)}</span>
                  </Stack>
                </TableCell>
                <TableCell align="right">{agent.openTickets}</TableCell>
                <TableCell align="right">{agent.pendingInQueues}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Paper>
  );
}
