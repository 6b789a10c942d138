import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import type { ConnectionStatusReason } from "@zapdesk/core";
import { useTranslation } from "react-i18next";

/** Reasons the admin can act on at once are errors; the others say what happened and what to do. */
const SEVERITY: Record<ConnectionStatusReason, "error" | "warning"> = {
  CLIENT_OUTDATED: "error",
  REPLACED: "warning",
  BANNED: "error",
  LOGGED_OUT: "warning",
  QR_TIMEOUT: "warning",
  TOKEN_INVALID: "error",
  CLOUD_UNREACHABLE: "warning",
  CLOUD_ERROR: "error",
  NO_OWNER: "warning",
  PAIRING_STALLED: "warning",
  PAIRING_FAILED: "warning",
  PAIRING_CODE_REFUSED: "error",
};

/** Why the connection is in its status, and how to fix it (admins only: the server sends no reason to others). */
export function StatusReason({ reason, connectionName }: { reason: ConnectionStatusReason; connectionName: string }) {
  const { t } = useTranslation();
  return (
    <Alert
      severity={SEVERITY[reason]}
      variant="outlined"
      aria-label={t("connections.reasons.label", { name: connectionName })}
      sx={{ py: 0 }}
    >
      <AlertTitle sx={{ mb: 0 }}>{t(`connections.reasons.${reason}.title`)}</AlertTitle>
      {t(`connections.reasons.${reason}.fix`)}
    </Alert>
  );
}
