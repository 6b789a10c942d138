import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type ClosingChoice, type ClosingReasonMode, closingValueSchema } from "@zapdesk/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useClosingReasons } from "../api/closing-reasons-api";

/** "12,50" or "12.50" → 12.5; anything else → NaN. */
export function parseAmount(text: string): number {
  const trimmed = text.trim().replace(/\s/g, "");
  if (!/^\d+([.,]\d{1,2})?$/.test(trimmed)) return Number.NaN;
  return Number(trimmed.replace(",", "."));
}

/**
 * Issue 23 §6: the reason asked at Resolve and Protocolo when the ticket's queue wants one. The
 * archived reasons are not offered; "required" cannot be confirmed without a reason; a reason that
 * asks for a value needs one (zero or more, two decimals at most).
 */
export function ClosingReasonPicker({
  open,
  mode,
  title,
  confirmLabel,
  busy,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  mode: Exclude<ClosingReasonMode, "off">;
  title: string;
  confirmLabel: string;
  busy?: boolean;
  onCancel(): void;
  onConfirm(choice: ClosingChoice): void;
}) {
  const { t } = useTranslation();
  const { data: reasons = [], isLoading } = useClosingReasons();
  const active = reasons.filter((r) => !r.archived);
  const [reasonId, setReasonId] = useState<number | "">("");
  const [value, setValue] = useState("");
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (open) {
      setReasonId("");
      setValue("");
      setTouched(false);
    }
  }, [open]);

  const reason = active.find((r) => r.id === reasonId);
  const amount = parseAmount(value);
  const valueOk = !reason?.asksValue || closingValueSchema.safeParse(amount).success;
  const reasonOk = mode === "optional" || reason !== undefined;
  const confirm = () => {
    setTouched(true);
    if (!reasonOk || !valueOk) return;
    onConfirm(
      reason ? { closingReasonId: reason.id, closingValue: reason.asksValue ? amount : null } : { closingReasonId: null },
    );
  };

  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby="closing-reason-title" fullWidth maxWidth="xs">
      <DialogTitle id="closing-reason-title">{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {!isLoading && active.length === 0 && (
            <Typography color="text.secondary">{t("closingReasons.picker.noneDefined")}</Typography>
          )}
          <TextField
            select
            label={t("closingReasons.picker.reason")}
            value={reasonId}
            onChange={(e) => setReasonId(e.target.value === "" ? "" : Number(e.target.value))}
            required={mode === "required"}
            error={touched && !reasonOk}
            helperText={touched && !reasonOk ? t("closingReasons.picker.required") : undefined}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            fullWidth
          >
            <MenuItem value="">
              <em>{mode === "required" ? t("closingReasons.picker.choose") : t("closingReasons.picker.noReason")}</em>
            </MenuItem>
            {active.map((r) => (
              <MenuItem key={r.id} value={r.id}>
                {r.name}
              </MenuItem>
            ))}
          </TextField>
          {reason?.asksValue && (
            <TextField
              label={t("closingReasons.picker.value")}
              value={value}
              onChange={(e) => setValue(e.target.value)}
              required
              error={touched && !valueOk}
              helperText={touched && !valueOk ? t("closingReasons.picker.valueInvalid") : t("closingReasons.picker.valueHint")}
              slotProps={{ htmlInput: { inputMode: "decimal" } }}
              fullWidth
            />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{t("closingReasons.picker.cancel")}</Button>
        <Button variant="contained" onClick={confirm} disabled={busy}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
