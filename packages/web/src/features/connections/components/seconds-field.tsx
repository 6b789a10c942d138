import InputAdornment from "@mui/material/InputAdornment";
import TextField from "@mui/material/TextField";
import { useEffect, useState } from "react";
import { type Control, Controller, type FieldPath } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { ConnectionForm } from "./connection-form";

const toText = (ms: number | null) => (ms === null || Number.isNaN(ms) ? "" : String(ms / 1000));

/** "1,5" and "1.5" are both one and a half seconds; empty is "not chosen"; anything else is NaN (refused by the schema). */
function toMs(text: string): number | null {
  const trimmed = text.trim().replace(",", ".");
  if (!trimmed) return null;
  const seconds = /^\d+(\.\d{0,3})?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  return Number.isNaN(seconds) ? Number.NaN : Math.round(seconds * 1000);
}

interface SecondsInputProps {
  id: string;
  label: string;
  help: string;
  placeholder?: string;
  value: number | null;
  error: boolean;
  onChange(ms: number | null): void;
  onBlur(): void;
}

/** The form keeps milliseconds (what the API takes); people think of sending gaps in seconds. */
function SecondsInput({ id, label, help, placeholder, value, error, onChange, onBlur }: SecondsInputProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(() => toText(value));
  // A reset from outside (the dialog loading a connection) replaces what was typed.
  useEffect(() => {
    setText((current) => (Object.is(toMs(current), value) ? current : toText(value)));
  }, [value]);
  return (
    <TextField
      id={id}
      label={label}
      value={text}
      placeholder={placeholder}
      error={error}
      helperText={error ? t("whatsappModal.pacing.invalid") : help}
      onChange={(e) => {
        setText(e.target.value);
        onChange(toMs(e.target.value));
      }}
      onBlur={onBlur}
      fullWidth
      size="small"
      slotProps={{
        htmlInput: { inputMode: "decimal" },
        input: { endAdornment: <InputAdornment position="end">{t("whatsappModal.pacing.seconds")}</InputAdornment> },
      }}
    />
  );
}

export function SecondsField(props: {
  control: Control<ConnectionForm>;
  name: FieldPath<ConnectionForm> & `pacing.${string}`;
  label: string;
  help: string;
  placeholder?: string;
}) {
  return (
    <Controller
      control={props.control}
      name={props.name}
      render={({ field, fieldState }) => (
        <SecondsInput
          id={`field-${props.name}`}
          label={props.label}
          help={props.help}
          placeholder={props.placeholder}
          value={field.value as number | null}
          error={!!fieldState.error}
          onChange={field.onChange}
          onBlur={field.onBlur}
        />
      )}
    />
  );
}
