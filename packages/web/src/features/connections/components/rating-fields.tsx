import FormControlLabel from "@mui/material/FormControlLabel";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { RATING_TIMEOUT_MINUTES } from "@zapdesk/core";
import { type Control, Controller, type UseFormSetValue, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormTextField } from "../../../components/ui/form-text-field";
import type { ConnectionForm } from "./connection-form";

/**
 * Issue 11 CSAT: the satisfaction survey of a connection. On, the customer gets the question
 * after each resolve and may answer 1–5 within the window. Switching it on suggests a question
 * that names the scale.
 */
export function RatingFields({
  control,
  setValue,
}: {
  control: Control<ConnectionForm>;
  setValue: UseFormSetValue<ConnectionForm>;
}) {
  const { t } = useTranslation();
  const on = useWatch({ control, name: "ratingOn" });
  const message = useWatch({ control, name: "ratingMessage" });
  return (
    <Stack spacing={1.5} component="fieldset" sx={{ border: 0, p: 0, m: 0 }} aria-label={t("csat.form.title")}>
      <Typography component="legend" variant="subtitle2">
        {t("csat.form.title")}
      </Typography>
      <Controller
        control={control}
        name="ratingOn"
        render={({ field }) => (
          <FormControlLabel
            control={
              <Switch
                checked={field.value}
                onChange={(e) => {
                  field.onChange(e.target.checked);
                  if (e.target.checked && !message.trim()) {
                    setValue("ratingMessage", t("csat.form.defaultMessage"), { shouldDirty: true });
                  }
                }}
              />
            }
            label={t("csat.form.enable")}
          />
        )}
      />
      <Typography variant="body2" color="text.secondary">
        {t("csat.form.help")}
      </Typography>
      {on && (
        <>
          <FormTextField
            control={control}
            name="ratingMessage"
            label={t("csat.form.message")}
            helperText={t("csat.form.messageHelp")}
            multiline
            minRows={2}
            fullWidth
          />
          <Controller
            control={control}
            name="ratingTimeoutMinutes"
            render={({ field, fieldState }) => (
              <TextField
                id="field-ratingTimeoutMinutes"
                label={t("csat.form.timeout")}
                type="number"
                value={Number.isFinite(field.value) ? field.value : ""}
                onChange={(e) => field.onChange(e.target.value === "" ? Number.NaN : Number(e.target.value))}
                onBlur={field.onBlur}
                error={!!fieldState.error}
                // The range is the rule whatever was wrong (blank, decimal, too small or too large).
                helperText={t("csat.form.timeoutHelp", { min: RATING_TIMEOUT_MINUTES.min, max: RATING_TIMEOUT_MINUTES.max })}
                slotProps={{
                  htmlInput: { min: RATING_TIMEOUT_MINUTES.min, max: RATING_TIMEOUT_MINUTES.max, step: 1, inputMode: "numeric" },
                }}
                sx={{ maxWidth: 320 }}
              />
            )}
          />
        </>
      )}
    </Stack>
  );
}
