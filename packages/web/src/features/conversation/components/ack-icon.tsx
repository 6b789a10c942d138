import AccessTimeIcon from "@mui/icons-material/AccessTime";
import DoneIcon from "@mui/icons-material/Done";
import DoneAllIcon from "@mui/icons-material/DoneAll";
import ErrorIcon from "@mui/icons-material/Error";
import { ACK_FAILED } from "@zapdesk/core";
import { useTranslation } from "react-i18next";

/** Spec §2: 0 clock, 1 one tick, 2 two ticks, 3 and 4 two blue ticks; -1 (refused by WhatsApp) a red mark. */
export function AckIcon({ ack }: { ack: number }) {
  const { t } = useTranslation();
  if (ack === ACK_FAILED) {
    return <ErrorIcon fontSize="small" titleAccess={t("conversation.ack.failed")} data-ack={ack} sx={{ color: "error.main" }} />;
  }
  const label = t(`conversation.ack.${Math.min(Math.max(ack, 0), 4)}`);
  const common = { fontSize: "small" as const, titleAccess: label, "data-ack": ack };
  if (ack <= 0) return <AccessTimeIcon {...common} sx={{ color: "text.secondary" }} />;
  if (ack === 1) return <DoneIcon {...common} sx={{ color: "text.secondary" }} />;
  if (ack === 2) return <DoneAllIcon {...common} sx={{ color: "text.secondary" }} />;
  return <DoneAllIcon {...common} sx={{ color: "chat.read" }} />;
}
