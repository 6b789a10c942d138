import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { CodeField } from "./code-field";

interface CodeFormProps {
  intro: string;
  submitLabel: string;
  pending: boolean;
  error?: string;
  /** Turning off also takes a recovery code or, instead, the password. */
  allowPassword?: boolean;
  onSubmit(input: { code?: string; password?: string }): void;
  onCancel(): void;
}

/** A current code (or the password, where allowed) before a sensitive change. */
export function CodeForm({ intro, submitLabel, pending, error, allowPassword, onSubmit, onCancel }: CodeFormProps) {
  const { t } = useTranslation();
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const [withPassword, setWithPassword] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(withPassword ? { password } : { code });
  };
  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={2} aria-label={submitLabel}>
      <Typography variant="body2">{intro}</Typography>
      {withPassword ? (
        <TextField
          id="two-factor-password"
          type="password"
          label={t("twoFactor.password")}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={!!error}
          helperText={error}
          autoComplete="current-password"
          fullWidth
        />
      ) : (
        <CodeField value={code} onChange={setCode} error={error} allowRecovery={allowPassword} autoFocus />
      )}
      {allowPassword && (
        <Button size="small" sx={{ alignSelf: "flex-start" }} onClick={() => setWithPassword((v) => !v)}>
          {withPassword ? t("twoFactor.useCode") : t("twoFactor.usePassword")}
        </Button>
      )}
      <Stack direction="row" spacing={1} sx={{ justifyContent: "flex-end" }}>
        <Button color="inherit" onClick={onCancel}>
          {t("twoFactor.cancel")}
        </Button>
        <Button type="submit" variant="contained" color={allowPassword ? "error" : "primary"} disabled={pending}>
          {submitLabel}
        </Button>
      </Stack>
    </Stack>
  );
}
