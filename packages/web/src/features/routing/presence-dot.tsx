import Box from "@mui/material/Box";
import type { PresenceStatus } from "@zapdesk/core";
import { useTranslation } from "react-i18next";

export const PRESENCE_COLORS: Record<PresenceStatus, string> = {
  online: "#2e7d32",
  away: "#ed6c02",
  offline: "#9e9e9e",
};

/** Issue 13: a coloured dot for a user's presence, named for screen readers. */
export function PresenceDot({ status, size = 10 }: { status: PresenceStatus; size?: number }) {
  const { t } = useTranslation();
  const label = t(`routing.presence.${status}`);
  return (
    <Box
      component="span"
      role="img"
      aria-label={label}
      title={label}
      data-presence={status}
      sx={{
        display: "inline-block",
        width: size,
        height: size,
        borderRadius: "50%",
        bgcolor: PRESENCE_COLORS[status],
        border: "2px solid",
        borderColor: "background.paper",
        boxSizing: "content-box",
        flexShrink: 0,
      }}
    />
  );
}
