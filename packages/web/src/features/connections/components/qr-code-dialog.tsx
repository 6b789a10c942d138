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

/** "ABCD1234" is read out and typed as two groups of four, as WhatsApp shows it. */
export const groupPairingCode = (code: string) => code.match(/.{1,4}/g)?.join("-") ?? code;

function PairingCode({ connection }: { connection: Connection }) {
  const { t } = useTranslation();
  const grouped = groupPairingCode(connection.pairingCode);
  return (
    <>
      <Typography
        role="img"
        aria-label={t("qrCode.pairingCodeLabel", { code: grouped.split("-").join(" ") })}
        sx={{ fontFamily: "monospace", fontSize: 44, fontWeight: 700, letterSpacing: 6 }}
      >
        {grouped}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 360, textAlign: "center" }}>
        {t("qrCode.pairingCodeHelp", { phone: connection.pairingPhone ?? "" })}
      </Typography>
    </>
  );
}

/**
 * Shows the session's QR code, or the code to type on the phone, kept current by the realtime
 * cache. Spec §4: it closes itself when a session update takes the code away (the phone paired).
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
    if (!previous || previous.id !== connection.id || previous === connection) return;
    const hadCode = !!(previous.qrcode || previous.pairingCode);
    const hasCode = !!(connection.qrcode || connection.pairingCode);
    if ((hadCode && !hasCode) || connection.status === "CONNECTED") onClose();
  }, [connection, onClose]);

  return (
    <Dialog open={!!connection} onClose={onClose} aria-labelledby="qr-dialog-title">
      <DialogTitle id="qr-dialog-title">{t("qrCode.title", { name: connection?.name ?? "" })}</DialogTitle>
      <DialogContent
        sx={{
          display: "flex",
          flexDirection: "column",
          gap: 2,
          alignItems: "center",
          justifyContent: "center",
          minWidth: 300,
          minHeight: 300,
        }}
      >
        {connection?.pairingCode ? (
          <PairingCode connection={connection} />
        ) : connection?.qrcode ? (
          <QRCodeSVG
            value={connection.qrcode}
            size={256}
            title={t("qrCode.imageLabel")}
            role="img"
            aria-label={t("qrCode.imageLabel")}
          />
        ) : (
          <Typography>{connection?.pairingPhone ? t("qrCode.waitingPairingCode") : t("qrCode.message")}</Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
