import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

interface ConfirmDialogProps {
  title: string;
  open: boolean;
  onClose(): void;
  onConfirm(): void;
  children?: ReactNode;
}

export function ConfirmDialog({ title, open, onClose, onConfirm, children }: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="confirm-dialog-title">
      <DialogTitle id="confirm-dialog-title">{title}</DialogTitle>
      {children && (
        <DialogContent dividers>
          <Typography>{children}</Typography>
        </DialogContent>
      )}
      <DialogActions>
        <Button onClick={onClose} color="inherit">
          {t("confirmationModal.buttons.cancel")}
        </Button>
        <Button
          variant="contained"
          color="error"
          onClick={() => {
            onClose();
            onConfirm();
          }}
        >
          {t("confirmationModal.buttons.confirm")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
