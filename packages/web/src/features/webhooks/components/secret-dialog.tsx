import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import { useTranslation } from "react-i18next";
import { CopyField } from "../../../components/ui/copy-field";

/** The signing secret, shown this once (after creation or rotation): the server never sends it again. */
export function SecretDialog({ secret, onClose }: { secret: string | null; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={!!secret} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="webhook-secret-title">
      <DialogTitle id="webhook-secret-title">{t("webhooks.secret.title")}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Alert severity="warning">{t("webhooks.secret.once")}</Alert>
          <CopyField
            id="webhook-secret"
            label={t("webhooks.secret.label")}
            value={secret ?? ""}
            helperText={t("webhooks.secret.help")}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {t("webhooks.secret.done")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
