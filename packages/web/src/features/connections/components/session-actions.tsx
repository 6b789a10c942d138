import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import { CHANNEL_CAPABILITIES, type Connection } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { useRequestNewQr } from "../api/request-new-qr";
import { useStartSession } from "../api/start-session";
import { PAIR_AGAIN_REASONS } from "./pairing-reasons";

interface SessionActionsProps {
  connection: Connection;
  onShowQr(): void;
  onDisconnect(): void;
  /** Connections that can pair by phone code ask how to pair again. */
  onChoosePairing(): void;
  /** One under the other (a narrow screen's actions column) instead of side by side. */
  stacked?: boolean;
}

/** Spec §4: the buttons each status offers, and only those the kind of connection can do. */
export function SessionActions({ connection, onShowQr, onDisconnect, onChoosePairing, stacked }: SessionActionsProps) {
  const { t } = useTranslation();
  const start = useStartSession();
  const newQr = useRequestNewQr();
  const { status, id, provider, name } = connection;
  const capabilities = CHANNEL_CAPABILITIES[provider];

  if (status === "OPENING") {
    return (
      <Button size="small" variant="outlined" disabled startIcon={<CircularProgress size={16} />}>
        {t("connections.buttons.connecting")}
      </Button>
    );
  }
  // The Cloud API has no phone session: no QR, no disconnect; only a new check of the token.
  if (!capabilities.qrCode) {
    return (
      <Button
        size="small"
        variant="outlined"
        onClick={() => start.mutate(id)}
        disabled={start.isPending}
        aria-label={t("connections.buttons.checkAgainFor", { name })}
      >
        {t("connections.buttons.checkAgain")}
      </Button>
    );
  }
  const pairAgain = () => (capabilities.pairingCode ? onChoosePairing() : newQr.mutate({ id }));
  return (
    <Stack
      direction={stacked ? "column" : "row"}
      spacing={stacked ? 0.5 : 1}
      sx={{ justifyContent: "center", alignItems: "center" }}
    >
      {status === "qrcode" && (
        <Button size="small" variant="contained" onClick={onShowQr}>
          {connection.pairingCode ? t("connections.buttons.pairingCode") : t("connections.buttons.qrcode")}
        </Button>
      )}
      {status === "DISCONNECTED" && (
        <>
          {!(connection.statusReason && PAIR_AGAIN_REASONS.has(connection.statusReason)) && (
            <Button size="small" variant="outlined" onClick={() => start.mutate(id)} disabled={start.isPending}>
              {t("connections.buttons.tryAgain")}
            </Button>
          )}
          <Button size="small" variant="outlined" color="secondary" onClick={pairAgain} disabled={newQr.isPending}>
            {t("connections.buttons.newQr")}
          </Button>
        </>
      )}
      {(status === "CONNECTED" || status === "PAIRING" || status === "TIMEOUT") && (
        <Button size="small" variant="outlined" color="secondary" onClick={onDisconnect}>
          {t("connections.buttons.disconnect")}
        </Button>
      )}
    </Stack>
  );
}
