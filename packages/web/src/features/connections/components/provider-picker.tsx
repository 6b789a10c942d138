import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import type { ConnectionProvider } from "@zapdesk/core";
import { useTranslation } from "react-i18next";

/** The order the dialog offers them in: the usual choice first. */
export const PROVIDER_CHOICES: readonly ConnectionProvider[] = ["baileys", "cloud", "simulator"];

/** QR code, Official API or Simulator: chosen when creating, fixed afterwards (the server keeps the kind). */
export function ProviderPicker({
  value,
  onChange,
  disabled,
}: {
  value: ConnectionProvider;
  onChange(provider: ConnectionProvider): void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  return (
    <FormControl disabled={disabled}>
      <FormLabel id="connection-provider-label">{t("whatsappModal.form.provider")}</FormLabel>
      <RadioGroup
        row
        aria-labelledby="connection-provider-label"
        value={value}
        onChange={(e) => onChange(e.target.value as ConnectionProvider)}
      >
        {PROVIDER_CHOICES.map((provider) => (
          <FormControlLabel
            key={provider}
            value={provider}
            control={<Radio />}
            label={t(`whatsappModal.form.providers.${provider}`)}
          />
        ))}
      </RadioGroup>
      <FormHelperText>
        {disabled ? t("whatsappModal.form.providerFixed") : t(`whatsappModal.form.providerHelp.${value}`)}
      </FormHelperText>
    </FormControl>
  );
}
