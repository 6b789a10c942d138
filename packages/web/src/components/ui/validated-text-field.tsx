import Visibility from "@mui/icons-material/Visibility";
import VisibilityOff from "@mui/icons-material/VisibilityOff";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import TextField, { type TextFieldProps } from "@mui/material/TextField";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { translateValidation } from "../../lib/i18n";

export type ValidatedTextFieldProps = TextFieldProps & {
  /** Core's validation message (English, the key of the `validation` namespace), shown translated. */
  errorMessage?: string;
  /** Adds the show/hide toggle of spec §2 and §5. */
  password?: boolean;
};

/** A text field showing a core validation message in the current language, with an optional password toggle. */
export function ValidatedTextField({ errorMessage, password, ...props }: ValidatedTextFieldProps) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      id={props.id ?? `field-${props.name}`}
      type={password ? (visible ? "text" : "password") : props.type}
      error={!!errorMessage}
      helperText={translateValidation(errorMessage) ?? props.helperText}
      slotProps={{
        ...props.slotProps,
        input: password
          ? {
              endAdornment: (
                <InputAdornment position="end">
                  <IconButton
                    aria-label={visible ? t("common.hidePassword") : t("common.showPassword")}
                    onClick={() => setVisible((v) => !v)}
                    edge="end"
                  >
                    {visible ? <VisibilityOff /> : <Visibility />}
                  </IconButton>
                </InputAdornment>
              ),
            }
          : props.slotProps?.input,
      }}
    />
  );
}
