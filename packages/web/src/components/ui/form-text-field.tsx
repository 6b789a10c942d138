import type { TextFieldProps } from "@mui/material/TextField";
import { type Control, Controller, type FieldValues, type Path } from "react-hook-form";
import { ValidatedTextField } from "./validated-text-field";

type FormTextFieldProps<T extends FieldValues> = Omit<TextFieldProps, "name"> & {
  name: Path<T>;
  control: Control<T>;
  /** Adds the show/hide toggle of spec §2 and §5. */
  password?: boolean;
};

/** A react-hook-form text field whose core validation message is shown in the current language. */
export function FormTextField<T extends FieldValues>({ name, control, ...props }: FormTextFieldProps<T>) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <ValidatedTextField {...props} {...field} value={field.value ?? ""} errorMessage={fieldState.error?.message} />
      )}
    />
  );
}
