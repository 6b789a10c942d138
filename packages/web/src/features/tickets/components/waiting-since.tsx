import HourglassEmptyIcon from "@mui/icons-material/HourglassEmpty";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { subscribeWaitingClock, waitingClockNow, waitingParts } from "../utils/waiting-clock";

/** Issue 13: a pending row's live "waiting since" (from the ticket's last move), on the shared 30 s tick. */
export function WaitingSince({ since }: { since: string }) {
  const { t } = useTranslation();
  const now = useSyncExternalStore(subscribeWaitingClock, waitingClockNow);
  // The tick is at most 30 s old; a ticket that moved since then is not "in the future".
  const parts = waitingParts(since, Math.max(now, Date.now()));
  const label = t(`flow.waiting.${parts.unit}`, { count: parts.value, rest: String(parts.rest ?? 0).padStart(2, "0") });
  return (
    <Box
      component="span"
      data-testid="waiting-since"
      title={t("flow.waiting.title", { time: new Date(since).toLocaleString() })}
      aria-label={t("flow.waiting.aria", { time: label })}
      sx={{ display: "inline-flex", alignItems: "center", gap: 0.25, color: "warning.main", flexShrink: 0 }}
    >
      <HourglassEmptyIcon sx={{ fontSize: 14 }} aria-hidden />
      <Typography variant="caption" component="span" sx={{ whiteSpace: "nowrap" }}>
        {label}
      </Typography>
    </Box>
  );
}
