import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import type { FormEventHandler, ReactNode } from "react";
import { useTranslation } from "react-i18next";

export interface FormDialogProps {
  open: boolean;
  onClose: () => void;
  /** Prefix of the dialog's element ids, e.g. "queue-modal". */
  id: string;
  /** The locale section with `title.add|edit` and `buttons.cancel|okAdd|okEdit`, e.g. "queueModal". */
  i18nKey: string;
  editing: boolean;
  /** The record being edited is still loading: a spinner instead of the form. */
  loading?: boolean;
  submitting: boolean;
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
}

/** The add/edit dialog every management screen uses: title, form body, cancel and save. */
export function FormDialog({ open, onClose, id, i18nKey, editing, loading, submitting, onSubmit, children }: FormDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby={`${id}-title`}>
      <DialogTitle id={`${id}-title`}>{t(`${i18nKey}.title.${editing ? "edit" : "add"}`)}</DialogTitle>
      {loading ? (
        <DialogContent sx={{ display: "grid", placeItems: "center" }}>
          <CircularProgress aria-label={t("common.loading")} />
        </DialogContent>
      ) : (
        <form noValidate onSubmit={onSubmit}>
          <DialogContent dividers>{children}</DialogContent>
          <DialogActions>
            <Button onClick={onClose} color="inherit" disabled={submitting}>
              {t(`${i18nKey}.buttons.cancel`)}
            </Button>
            <Button type="submit" variant="contained" disabled={submitting}>
              {t(`${i18nKey}.buttons.${editing ? "okEdit" : "okAdd"}`)}
            </Button>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}
