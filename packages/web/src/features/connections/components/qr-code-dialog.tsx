import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Typography from "@mui/material/Typography";
import type { Connection } from "@zapdesk/core";
import { QRCodeSVG } from "qrcode.react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";

/**
 * Shows the session's QR code, kept current by the realtime cache. Spec §4: it
 * closes itself when a session update arrives with an empty QR code (the phone paired).
 */
export function QrCodeDialog({ connection, onClose }: { connection: Connection | undefined; onClose(): void }) {
  const { t } = useTranslation();
  const seen = useRef<Connection | undefined>(undefined);

  useEffect(() => {
    if (!connection) {
      seen.current = undefined;
      return;
    }
    const previous = seen.current;
    seen.current = connection;
    if (previous && previous.id === connection.id && previous !== connection && !connection.qrcode) onClose();
  }, [connection, onClose]);

  return (
    <Dialog open={!!connection} onClose={onClose} aria-labelledby="qr-dialog-title">
      <DialogTitle id="qr-dialog-title">{t("qrCode.title", { name: connection?.name ?? "" })}</DialogTitle>
      <DialogContent sx={{ display: "grid", placeItems: "center", minWidth: 300, minHeight: 300 }}>
        {connection?.qrcode ? (
          <QRCodeSVG
            value={connection.qrcode}
            size={256}
            title={t("qrCode.imageLabel")}
            role="img"
            aria-label={t("qrCode.imageLabel")}
          />
        ) : (
          <Typography>{t("qrCode.message")}</Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
