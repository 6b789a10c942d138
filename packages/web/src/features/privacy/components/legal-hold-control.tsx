import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { can } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAuth } from "../../../lib/auth";
import { type HoldTarget, useLegalHolds, usePlaceHold, useReleaseHold } from "../api/retention";

/**
 * Issue 22 §1: a legal hold on a contact or a ticket (admins with `retention:manage`): while it is
 * on, no retention policy removes anything of it.
 */
export function LegalHoldControl({ target }: { target: HoldTarget }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const allowed = can(user, "retention:manage");
  const { data } = useLegalHolds(target, allowed);
  const place = usePlaceHold(target);
  const release = useReleaseHold(target);
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState("");
  if (!allowed || !data) return null;
  const hold = data.holds[0];

  return (
    <>
      {hold ? (
        <>
          <Typography variant="body2" role="status" color="warning.dark">
            {t("retention.hold.on", { by: hold.createdBy, reason: hold.reason || "—" })}
          </Typography>
          <Button size="small" variant="text" disabled={release.isPending} onClick={() => release.mutate(hold.id)}>
            {t("retention.hold.release")}
          </Button>
        </>
      ) : (
        <Button size="small" variant="text" onClick={() => setAsking(true)}>
          {t("retention.hold.place")}
        </Button>
      )}
      <Dialog open={asking} onClose={() => setAsking(false)} aria-labelledby="legal-hold-title">
        <DialogTitle id="legal-hold-title">{t("retention.hold.place")}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" sx={{ mb: 2 }}>
            {t("retention.hold.explain")}
          </Typography>
          <TextField
            autoFocus
            fullWidth
            label={t("retention.hold.reason")}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAsking(false)}>{t("retention.hold.cancel")}</Button>
          <Button
            variant="contained"
            disabled={place.isPending}
            onClick={() =>
              place.mutate(reason.trim(), {
                onSuccess: () => {
                  setAsking(false);
                  setReason("");
                },
              })
            }
          >
            {t("retention.hold.confirm")}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
