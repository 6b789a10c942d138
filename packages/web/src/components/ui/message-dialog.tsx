import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import { useTranslation } from "react-i18next";

/** An accessible stand-in for window.alert (spec's "shows an alert"), which would block tests and screen readers. */
export function MessageDialog({ message, onClose }: { message: string | null; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={message !== null} onClose={onClose} aria-describedby="message-dialog-text" role="alertdialog">
      <DialogContent>
        <DialogContentText id="message-dialog-text" sx={{ whiteSpace: "pre-line" }}>
          {message}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          {t("common.ok")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
