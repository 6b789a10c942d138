import FormControlLabel from "@mui/material/FormControlLabel";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import { CHANNEL_CAPABILITIES, type ConnectionProvider } from "@zapdesk/core";
import { type Control, Controller, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormTextField } from "../../../components/ui/form-text-field";
import type { ConnectionForm } from "./connection-form";
import { SecondsField } from "./seconds-field";

/** QR-like connections: pairing by a code typed on the phone (where the kind can), and send pacing. */
export function QrFields({
  control,
  provider,
  editing,
}: {
  control: Control<ConnectionForm>;
  provider: ConnectionProvider;
  editing: boolean;
}) {
  const { t } = useTranslation();
  const pairByPhone = useWatch({ control, name: "pairByPhone" });
  // A new connection leaves pacing blank: the server applies the pacing recommended for its kind.
  const placeholder = editing ? undefined : t("whatsappModal.pacing.default");
  return (
    <Stack spacing={2}>
      {CHANNEL_CAPABILITIES[provider].pairingCode && (
        <Stack spacing={1}>
          <Controller
            control={control}
            name="pairByPhone"
            render={({ field }) => (
              <FormControlLabel
                control={<Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />}
                label={t("whatsappModal.pairing.byPhone")}
              />
            )}
          />
          {pairByPhone && (
            <FormTextField
              control={control}
              name="pairingPhone"
              label={t("whatsappModal.pairing.phone")}
              placeholder="5511999990000"
              helperText={t("whatsappModal.pairing.phoneHelp")}
              fullWidth
              slotProps={{ htmlInput: { inputMode: "tel", autoComplete: "tel" } }}
            />
          )}
        </Stack>
      )}
      <Stack spacing={1} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
        <Typography component="legend" variant="subtitle2">
          {t("whatsappModal.pacing.title")}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t("whatsappModal.pacing.help")}
        </Typography>
        <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
          <SecondsField
            control={control}
            name="pacing.minGapMs"
            label={t("whatsappModal.pacing.minGap")}
            help={t("whatsappModal.pacing.minGapHelp")}
            placeholder={placeholder}
          />
          <SecondsField
            control={control}
            name="pacing.jitterMs"
            label={t("whatsappModal.pacing.jitter")}
            help={t("whatsappModal.pacing.jitterHelp")}
            placeholder={placeholder}
          />
        </Stack>
      </Stack>
    </Stack>
  );
}
