import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { PresenceStatus } from "@zapdesk/core";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { usePresence } from "./api";
import { PresenceDot } from "./presence-dot";

const ORDER: Record<PresenceStatus, number> = { online: 0, away: 1, offline: 2 };

/**
 * Issue 13: the transfer dialog's agents: the chosen queue's agents (everyone without a queue) with
 * their presence and open tickets, online first; the search box only filters; "Queue only" first.
 * `value` null: queue only.
 */
export function TransferAgentList({
  queueId,
  value,
  onChange,
}: {
  queueId: number | null;
  value: number | null;
  onChange(userId: number | null): void;
}) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState("");
  const { data: people = [] } = usePresence();
  const agents = useMemo(() => {
    const words = filter.trim().toLowerCase();
    return people
      .filter((p) => queueId === null || p.queueIds.includes(queueId))
      .filter((p) => !words || p.name.toLowerCase().includes(words))
      .sort((a, b) => ORDER[a.status] - ORDER[b.status] || a.openTickets - b.openTickets || a.name.localeCompare(b.name));
  }, [people, queueId, filter]);
  const label = t("routing.transfer.agents");
  return (
    <>
      <TextField
        size="small"
        label={t("routing.transfer.search")}
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        autoFocus
      />
      <List
        dense
        aria-label={label}
        sx={{ maxHeight: 300, overflowY: "auto", border: 1, borderColor: "divider", borderRadius: 1 }}
      >
        <ListItemButton selected={value === null} onClick={() => onChange(null)} aria-pressed={value === null}>
          <ListItemText primary={t("routing.transfer.queueOnly")} />
        </ListItemButton>
        {agents.map((agent) => (
          <ListItemButton
            key={agent.userId}
            selected={value === agent.userId}
            aria-pressed={value === agent.userId}
            onClick={() => onChange(agent.userId)}
            data-testid={`transfer-agent-${agent.userId}`}
          >
            <ListItemIcon sx={{ minWidth: 24 }}>
              <PresenceDot status={agent.status} />
            </ListItemIcon>
            <ListItemText
              primary={agent.name}
              secondary={`${t(`routing.presence.${agent.status}`)} · ${t("routing.transfer.openTickets", { count: agent.openTickets })}`}
            />
          </ListItemButton>
        ))}
        {agents.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 1 }}>
            {t("routing.transfer.noAgents")}
          </Typography>
        )}
      </List>
    </>
  );
}
