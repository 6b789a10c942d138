import ExpandLessIcon from "@mui/icons-material/ExpandLess";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import ButtonBase from "@mui/material/ButtonBase";
import Typography from "@mui/material/Typography";
import type { Ticket } from "@zapdesk/core";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";

export const CHOOSING_HEADER_HEIGHT = 40;

export type ListItem = { kind: "ticket"; ticket: Ticket } | { kind: "choosingHeader"; count: number };

/**
 * Issue 13: in the Waiting list, the tickets still at the greeting menu sit apart in a collapsed
 * "Choosing a queue (N)" group at the top (the server sends them to admins, and to agents only when
 * the setting allows). `grouped` false: the list as it is.
 */
export function useChoosingGroup(tickets: Ticket[], grouped: boolean) {
  const [expanded, setExpanded] = useState(false);
  const items = useMemo<ListItem[]>(() => {
    const all = tickets.map((ticket) => ({ kind: "ticket" as const, ticket }));
    if (!grouped) return all;
    const choosing = all.filter((item) => item.ticket.choosingQueue);
    if (!choosing.length) return all;
    const rest = all.filter((item) => !item.ticket.choosingQueue);
    return [{ kind: "choosingHeader" as const, count: choosing.length }, ...(expanded ? choosing : []), ...rest];
  }, [tickets, grouped, expanded]);
  return { items, expanded, toggle: () => setExpanded((v) => !v) };
}

export function ChoosingHeader({ count, expanded, onToggle }: { count: number; expanded: boolean; onToggle(): void }) {
  const { t } = useTranslation();
  return (
    <ButtonBase
      onClick={onToggle}
      aria-expanded={expanded}
      sx={{
        width: "100%",
        height: CHOOSING_HEADER_HEIGHT,
        px: 2,
        justifyContent: "space-between",
        bgcolor: "action.hover",
        borderBottom: 1,
        borderColor: "divider",
      }}
    >
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {t("routing.choosing.group", { count })}
      </Typography>
      {expanded ? <ExpandLessIcon fontSize="small" /> : <ExpandMoreIcon fontSize="small" />}
    </ButtonBase>
  );
}
