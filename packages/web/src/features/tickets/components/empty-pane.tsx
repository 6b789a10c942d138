import DoneAllIcon from "@mui/icons-material/DoneAll";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";

/** The pane without a ticket; after the last ticket was handled (issue 13), "All caught up". */
export function EmptyTicketPane() {
  const { t } = useTranslation();
  const { state } = useLocation();
  if (!(state as { caughtUp?: boolean } | null)?.caughtUp) {
    return (
      <Box sx={{ display: "grid", placeItems: "center", height: "100%" }}>
        <Typography color="text.secondary">{t("ticketsManager.noTicketSelected")}</Typography>
      </Box>
    );
  }
  return (
    <Box role="status" sx={{ display: "grid", placeContent: "center", justifyItems: "center", gap: 1, height: "100%", p: 2 }}>
      <DoneAllIcon color="success" sx={{ fontSize: 48 }} aria-hidden />
      <Typography variant="h6">{t("flow.caughtUp.title")}</Typography>
      <Typography color="text.secondary" sx={{ textAlign: "center" }}>
        {t("flow.caughtUp.message")}
      </Typography>
    </Box>
  );
}
