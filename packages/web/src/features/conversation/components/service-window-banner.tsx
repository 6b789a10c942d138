import ScheduleIcon from "@mui/icons-material/Schedule";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { splitRemaining } from "../hooks/use-service-window";

/** Under this, the countdown turns to a warning: the agent should wrap up or expect to need a template. */
const WARN_BELOW_MS = 60 * 60 * 1000;

/** How long free-form replies stay possible on a Cloud API ticket. */
export function ServiceWindowBanner({ remainingMs }: { remainingMs: number }) {
  const { t } = useTranslation();
  const { hours, minutes } = splitRemaining(remainingMs);
  const left =
    hours > 0
      ? t("conversation.window.hoursLeft", { hours, minutes: String(minutes).padStart(2, "0") })
      : minutes > 0
        ? t("conversation.window.minutesLeft", { minutes })
        : t("conversation.window.underAMinute");
  return (
    <Box
      role="status"
      sx={{
        display: "flex",
        alignItems: "center",
        gap: 0.5,
        px: 1.5,
        pt: 0.5,
        color: remainingMs < WARN_BELOW_MS ? "warning.dark" : "text.secondary",
      }}
    >
      <ScheduleIcon fontSize="small" aria-hidden />
      <Typography variant="caption">{t("conversation.window.open", { left })}</Typography>
    </Box>
  );
}
