import ContentCopy from "@mui/icons-material/ContentCopy";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import TextField from "@mui/material/TextField";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";

interface CopyFieldProps {
  id: string;
  label: string;
  value: string;
  helperText?: string;
}

/** A read-only value the user pastes elsewhere (a webhook URL, a token), with a copy button. */
export function CopyField({ id, label, value, helperText }: CopyFieldProps) {
  const { t } = useTranslation();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(t("common.copied", { name: label }));
    } catch {
      toast.error(t("common.copyFailed"));
    }
  };
  return (
    <TextField
      id={id}
      label={label}
      value={value}
      helperText={helperText}
      fullWidth
      size="small"
      slotProps={{
        htmlInput: { readOnly: true, spellCheck: false },
        input: {
          sx: { fontFamily: "monospace" },
          endAdornment: (
            <InputAdornment position="end">
              <IconButton aria-label={t("common.copy", { name: label })} onClick={copy} disabled={!value} edge="end">
                <ContentCopy />
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
