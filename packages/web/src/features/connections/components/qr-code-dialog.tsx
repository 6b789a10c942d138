import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Typography from "@mui/material/Typography";
import type { Connection } from "@zapdesk/core";
import { QRCodeSVG } from "qrcode.react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useRequestNewQr } from "../api/request-new-qr";
import { useStartSession } from "../api/start-session";
import { PAIR_AGAIN_REASONS } from "./pairing-reasons";
import { StatusReason } from "./status-reason";

/** "ABCD1234" is read out and typed as two groups of four, as WhatsApp shows it. */
export const groupPairingCode = (code: string) => code.match(/.{1,4}/g)?.join("-") ?? code;

type Stage = "code" | "waiting" | "unreachable" | "stopped";

/** What the dialog can show: the code, a wait with an end, or why there is no code and what to do. */
function stageOf(connection: Connection): Stage {
  if (connection.qrcode || connection.pairingCode) return "code";
  if (connection.status === "DISCONNECTED") return "stopped";
  // Reconnecting after a failed attempt: the server could not reach WhatsApp (or WhatsApp dropped it).
  if (connection.status === "TIMEOUT" || (connection.status === "OPENING" && connection.retries > 0)) return "unreachable";
  return "waiting";
}

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

function LastError({ connection }: { connection: Connection }) {
  const { t } = useTranslation();
  const error = connection.health?.lastError;
  if (!error) return null;
  return (
    <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 360, wordBreak: "break-word" }}>
      {t("qrCode.lastError", { error })}
    </Typography>
  );
}

function Unreachable({ connection }: { connection: Connection }) {
  const { t } = useTranslation();
  return (
    <Alert severity="warning" role="alert" sx={{ maxWidth: 400 }}>
      <AlertTitle>{t("qrCode.unreachableTitle")}</AlertTitle>
      <Typography variant="body2">{t("qrCode.unreachable", { count: connection.retries })}</Typography>
      <Typography variant="body2" sx={{ wordBreak: "break-word" }}>
        {connection.health?.lastError ? t("qrCode.lastError", { error: connection.health.lastError }) : t("qrCode.noError")}
      </Typography>
    </Alert>
  );
}

/** The one thing to do when there is no code to show, or none while a code is on screen. */
function NextStep({ connection, stage }: { connection: Connection; stage: Stage }) {
  const { t } = useTranslation();
  const start = useStartSession();
  const newQr = useRequestNewQr();
  if (stage === "unreachable") {
    return (
      <Button variant="contained" onClick={() => start.mutate(connection.id)} disabled={start.isPending}>
        {t("qrCode.retryNow")}
      </Button>
    );
  }
  // A ban has no fix here; reasons other than a failed pairing are retried as they are.
  if (stage !== "stopped" || connection.statusReason === "BANNED") return null;
  if (connection.statusReason && !PAIR_AGAIN_REASONS.has(connection.statusReason)) {
    return (
      <Button variant="contained" onClick={() => start.mutate(connection.id)} disabled={start.isPending}>
        {t("qrCode.tryAgain")}
      </Button>
    );
  }
  // Pairs again the way the connection is set to: a new QR code, or a new code for its phone.
  return (
    <Button variant="contained" onClick={() => newQr.mutate({ id: connection.id })} disabled={newQr.isPending}>
      {connection.pairingPhone ? t("qrCode.newCode") : t("qrCode.newQr")}
    </Button>
  );
}

function Body({ connection, stage }: { connection: Connection; stage: Stage }) {
  const { t } = useTranslation();
  if (connection.pairingCode) return <PairingCode connection={connection} />;
  if (connection.qrcode) {
    return (
      <QRCodeSVG
        value={connection.qrcode}
        size={256}
        title={t("qrCode.imageLabel")}
        role="img"
        aria-label={t("qrCode.imageLabel")}
      />
    );
  }
  if (stage === "unreachable") return <Unreachable connection={connection} />;
  if (stage === "stopped") {
    return (
      <>
        {connection.statusReason ? (
          <StatusReason reason={connection.statusReason} connectionName={connection.name} />
        ) : (
          <Typography>{t("qrCode.stopped")}</Typography>
        )}
        <LastError connection={connection} />
      </>
    );
  }
  return (
    <>
      <CircularProgress size={32} aria-hidden />
      <Typography>{connection.pairingPhone ? t("qrCode.waitingPairingCode") : t("qrCode.message")}</Typography>
    </>
  );
}

/**
 * Shows the session's QR code, or the code to type on the phone, kept current by the realtime
 * cache. Spec §4: it closes itself once the phone paired. When there is no code it never just
 * waits: a link that stopped says why with the one thing to do, and a server that cannot reach
 * WhatsApp says so with its last error and a retry.
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
    // The code goes away for a pairing phone (PAIRING) and for a link that stopped: only the first closes.
    if ((hadCode && !hasCode && connection.status === "PAIRING") || connection.status === "CONNECTED") onClose();
  }, [connection, onClose]);

  const stage = connection ? stageOf(connection) : "waiting";
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
        {connection && <Body connection={connection} stage={stage} />}
      </DialogContent>
      <DialogActions>
        {connection && <NextStep connection={connection} stage={stage} />}
        <Button onClick={onClose}>{t("common.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
