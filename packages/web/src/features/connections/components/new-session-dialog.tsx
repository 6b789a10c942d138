import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { type Connection, newSessionSchema } from "@zapdesk/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { translateValidation } from "../../../lib/i18n";
import { useRequestNewQr } from "../api/request-new-qr";

type Method = "qr" | "phone";

/**
 * "New QR code" for connections that can also pair by phone number: scan a QR, or type on the
 * phone a code WhatsApp gives for that number. Then the QR dialog shows whichever arrives.
 */
export function NewSessionDialog({
  connection,
  onClose,
  onRequested,
}: {
  connection: Connection | undefined;
  onClose(): void;
  onRequested(connection: Connection): void;
}) {
  const { t } = useTranslation();
  const request = useRequestNewQr();
  const [method, setMethod] = useState<Method>("qr");
  const [phone, setPhone] = useState("");
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (!connection) return;
    setMethod(connection.pairingPhone ? "phone" : "qr");
    setPhone(connection.pairingPhone ?? "");
    setError(undefined);
  }, [connection]);

  const submit = () => {
    if (!connection) return;
    let pairingPhone: string | null = null;
    if (method === "phone") {
      const parsed = newSessionSchema.safeParse({ pairingPhone: phone });
      if (!parsed.success || !parsed.data.pairingPhone) {
        setError(translateValidation(parsed.error?.issues[0]?.message ?? "Required"));
        return;
      }
      pairingPhone = parsed.data.pairingPhone;
    }
    request.mutate({ id: connection.id, pairingPhone }, { onSuccess: () => onRequested(connection) });
  };

  return (
    <Dialog open={!!connection} onClose={onClose} aria-labelledby="new-session-title" maxWidth="xs" fullWidth>
      <DialogTitle id="new-session-title">{t("connections.newSession.title", { name: connection?.name ?? "" })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <RadioGroup aria-labelledby="new-session-title" value={method} onChange={(e) => setMethod(e.target.value as Method)}>
            <FormControlLabel value="qr" control={<Radio />} label={t("connections.newSession.qr")} />
            <FormControlLabel value="phone" control={<Radio />} label={t("connections.newSession.phone")} />
          </RadioGroup>
          {method === "phone" && (
            <TextField
              id="new-session-phone"
              label={t("whatsappModal.pairing.phone")}
              value={phone}
              onChange={(e) => setPhone(e.target.value)}
              placeholder="5511999990000"
              error={!!error}
              helperText={error ?? t("whatsappModal.pairing.phoneHelp")}
              autoFocus
              slotProps={{ htmlInput: { inputMode: "tel", autoComplete: "tel" } }}
            />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit">
          {t("whatsappModal.buttons.cancel")}
        </Button>
        <Button variant="contained" onClick={submit} disabled={request.isPending}>
          {t("connections.newSession.ok")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
