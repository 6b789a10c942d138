import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import type { Connection } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { useRequestNewQr } from "../api/request-new-qr";
import { useStartSession } from "../api/start-session";

interface SessionActionsProps {
  connection: Connection;
  onShowQr(): void;
  onDisconnect(): void;
}

/** Spec §4: the buttons each status offers. */
export function SessionActions({ connection, onShowQr, onDisconnect }: SessionActionsProps) {
  const { t } = useTranslation();
  const start = useStartSession();
  const newQr = useRequestNewQr();
  const { status, id } = connection;
  return (
    <Stack direction="row" spacing={1} sx={{ justifyContent: "center" }}>
      {status === "qrcode" && (
        <Button size="small" variant="contained" onClick={onShowQr}>
          {t("connections.buttons.qrcode")}
        </Button>
      )}
      {status === "DISCONNECTED" && (
        <>
          <Button size="small" variant="outlined" onClick={() => start.mutate(id)} disabled={start.isPending}>
            {t("connections.buttons.tryAgain")}
          </Button>
          <Button size="small" variant="outlined" color="secondary" onClick={() => newQr.mutate(id)} disabled={newQr.isPending}>
            {t("connections.buttons.newQr")}
          </Button>
        </>
      )}
      {(status === "CONNECTED" || status === "PAIRING" || status === "TIMEOUT") && (
        <Button size="small" variant="outlined" color="secondary" onClick={onDisconnect}>
          {t("connections.buttons.disconnect")}
        </Button>
      )}
      {status === "OPENING" && (
        <Button size="small" variant="outlined" disabled startIcon={<CircularProgress size={16} />}>
          {t("connections.buttons.connecting")}
        </Button>
      )}
    </Stack>
  );
}
