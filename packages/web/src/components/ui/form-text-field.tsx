import Visibility from "@mui/icons-material/Visibility";
import VisibilityOff from "@mui/icons-material/VisibilityOff";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import TextField, { type TextFieldProps } from "@mui/material/TextField";
import { useState } from "react";
import { type Control, Controller, type FieldValues, type Path } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { translateValidation } from "../../lib/i18n";

type FormTextFieldProps<T extends FieldValues> = Omit<TextFieldProps, "name"> & {
  name: Path<T>;
  control: Control<T>;
  /** Adds the show/hide toggle of spec §2 and §5. */
  password?: boolean;
};

/** A react-hook-form text field whose core validation message is shown in the current language. */
export function FormTextField<T extends FieldValues>({ name, control, password, ...props }: FormTextFieldProps<T>) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          {...props}
          {...field}
          value={field.value ?? ""}
          id={props.id ?? `field-${name}`}
          type={password ? (visible ? "text" : "password") : props.type}
          error={!!fieldState.error}
          helperText={translateValidation(fieldState.error?.message) ?? props.helperText}
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
      )}
    />
  );
}
