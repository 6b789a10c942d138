import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { SETTING_VALUE_SCHEMAS, type SettingKey } from "@zapdesk/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { translateValidation } from "../../../lib/i18n";

/** A free-text setting saved with its own button, validated by the same core schema the server applies. */
interface SettingUrlFieldProps {
  settingKey: SettingKey;
  label: string;
  /** Id of the visible row title that names the field. */
  labelledBy: string;
  value: string;
  onSave(value: string): void;
}

export function SettingUrlField({ settingKey, label, labelledBy, value, onSave }: SettingUrlFieldProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => setDraft(value), [value]);

  const save = () => {
    const result = SETTING_VALUE_SCHEMAS[settingKey]?.safeParse(draft.trim());
    if (result && !result.success) return setError(result.error.issues[0]?.message);
    setError(undefined);
    onSave(draft.trim());
  };

  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: "flex-start", flex: 1, minWidth: 280 }}>
      <TextField
        id={`setting-${settingKey}`}
        size="small"
        fullWidth
        placeholder="https://"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => e.key === "Enter" && save()}
        error={!!error}
        helperText={translateValidation(error)}
        slotProps={{ htmlInput: { "aria-labelledby": labelledBy } }}
      />
      <Button
        variant="outlined"
        onClick={save}
        disabled={draft.trim() === value}
        aria-label={t("settings.saveItem", { name: label })}
      >
        {t("settings.save")}
      </Button>
    </Stack>
  );
}
