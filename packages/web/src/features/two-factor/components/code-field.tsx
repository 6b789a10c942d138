import TextField from "@mui/material/TextField";
import { useTranslation } from "react-i18next";

interface CodeFieldProps {
  value: string;
  onChange(value: string): void;
  error?: string;
  /** Recovery codes (letters and a dash) are accepted too. */
  allowRecovery?: boolean;
  autoFocus?: boolean;
  id?: string;
}

/** The six digits from the authenticator app (or, where accepted, a recovery code). */
export function CodeField({ value, onChange, error, allowRecovery, autoFocus, id = "two-factor-code" }: CodeFieldProps) {
  const { t } = useTranslation();
  return (
    <TextField
      id={id}
      label={allowRecovery ? t("twoFactor.codeOrRecovery") : t("twoFactor.code")}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={!!error}
      helperText={error ?? (allowRecovery ? t("twoFactor.codeOrRecoveryHelp") : undefined)}
      autoComplete="one-time-code"
      autoFocus={autoFocus}
      fullWidth
      slotProps={{
        htmlInput: {
          inputMode: allowRecovery ? "text" : "numeric",
          maxLength: allowRecovery ? 40 : 7,
          spellCheck: false,
          autoCapitalize: "none",
        },
        input: { sx: { fontFamily: "monospace", letterSpacing: 2 } },
      }}
    />
  );
}
