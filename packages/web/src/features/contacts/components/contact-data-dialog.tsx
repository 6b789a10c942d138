import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Divider from "@mui/material/Divider";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type Contact, can, confirmsContact } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAuth } from "../../../lib/auth";
import { toastError } from "../../../lib/error-handler";
import { useContactDataSummary, useDownloadContactData, useEraseContact } from "../api/contact-data";

type Target = Pick<Contact, "id" | "name" | "number">;

/**
 * Issue 22 §2: a customer's data on request (LGPD art. 18). The admin downloads everything held
 * about the contact, or erases it: what would go is shown first, and the erase button stays off
 * until the contact's name or number is typed again (the server checks the same).
 */
export function ContactDataDialog({ contact, onClose }: { contact: Target | null; onClose(): void }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [typed, setTyped] = useState("");
  const canExport = can(user, "contacts:exportData");
  const canErase = can(user, "contacts:erase");
  const summary = useContactDataSummary(contact?.id ?? 0, !!contact && canErase);
  const download = useDownloadContactData();
  const erase = useEraseContact();

  const close = () => {
    setTyped("");
    onClose();
  };
  const onDownload = () => {
    if (!contact) return;
    download.mutate(contact.id, { onError: toastError });
  };
  const onErase = () => {
    if (!contact) return;
    erase.mutate({ id: contact.id, confirm: typed }, { onSuccess: close });
  };
  const counts = summary.data;
  const matches = !!contact && confirmsContact(contact, typed);

  return (
    <Dialog open={!!contact} onClose={close} fullWidth maxWidth="sm" aria-labelledby="contact-data-title">
      <DialogTitle id="contact-data-title">{t("contactData.title", { name: contact?.name ?? "" })}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          {canExport && (
            <Stack spacing={1} sx={{ alignItems: "flex-start" }}>
              <Typography variant="subtitle1">{t("contactData.export.title")}</Typography>
              <Typography variant="body2">{t("contactData.export.help")}</Typography>
              <Button variant="outlined" onClick={onDownload} disabled={download.isPending}>
                {download.isPending ? t("contactData.export.preparing") : t("contactData.export.download")}
              </Button>
            </Stack>
          )}
          {canExport && canErase && <Divider />}
          {canErase && (
            <Stack spacing={1}>
              <Typography variant="subtitle1">{t("contactData.erase.title")}</Typography>
              <Typography variant="body2">{t("contactData.erase.help")}</Typography>
              {counts && (
                <Typography variant="body2" role="status" aria-label={t("contactData.erase.summaryLabel")}>
                  {t("contactData.erase.summary", counts)}
                </Typography>
              )}
              {counts && counts.activeTickets > 0 && (
                <Alert severity="warning">{t("contactData.erase.active", { n: counts.activeTickets })}</Alert>
              )}
              {counts?.legalHold && <Alert severity="info">{t("contactData.erase.legalHold")}</Alert>}
              <Alert severity="error">{t("contactData.erase.irreversible")}</Alert>
              <TextField
                label={t("contactData.erase.confirmLabel", { name: contact?.name ?? "", number: contact?.number ?? "" })}
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
                autoComplete="off"
                fullWidth
              />
            </Stack>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} color="inherit" disabled={erase.isPending}>
          {t("contactData.close")}
        </Button>
        {canErase && (
          <Button
            variant="contained"
            color="error"
            onClick={onErase}
            disabled={!matches || erase.isPending || !!counts?.legalHold}
          >
            {t("contactData.erase.confirm")}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
