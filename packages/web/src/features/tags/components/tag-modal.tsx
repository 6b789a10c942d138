import { zodResolver } from "@hookform/resolvers/zod";
import Box from "@mui/material/Box";
import ButtonBase from "@mui/material/ButtonBase";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { type Tag, tagInputSchema } from "@zapdesk/core";
import { useEffect } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/ui/form-dialog";
import { FormTextField } from "../../../components/ui/form-text-field";
import { submitForm } from "../../../lib/form-errors";
import { useSaveTag } from "../api/tags-api";

/** A few ready colours; any other is typed or picked. */
export const TAG_SWATCHES = [
  "#e53935",
  "#fb8c00",
  "#fdd835",
  "#43a047",
  "#00897b",
  "#1e88e5",
  "#3949ab",
  "#8e24aa",
  "#6d4c41",
  "#546e7a",
];

interface TagForm {
  name: string;
  color: string;
}

export function TagModal({ open, onClose, tag }: { open: boolean; onClose(): void; tag: Tag | null }) {
  const { t } = useTranslation();
  const save = useSaveTag();
  const { control, handleSubmit, reset, setError, formState } = useForm<TagForm>({
    resolver: zodResolver(tagInputSchema) as never,
    defaultValues: { name: "", color: TAG_SWATCHES[5] },
  });

  useEffect(() => {
    if (open) reset({ name: tag?.name ?? "", color: tag?.color ?? TAG_SWATCHES[5] });
  }, [open, tag, reset]);

  const onSubmit = handleSubmit(async (values) => {
    await submitForm({
      save: () => save.mutateAsync({ id: tag?.id, input: values }),
      success: t("tagModal.success"),
      done: onClose,
      setError,
      fields: ["name", "color"],
    });
  });

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      id="tag-modal"
      i18nKey="tagModal"
      editing={!!tag}
      submitting={formState.isSubmitting}
      onSubmit={onSubmit}
    >
      <Stack spacing={2}>
        <FormTextField control={control} name="name" label={t("tagModal.form.name")} autoFocus fullWidth />
        <Controller
          control={control}
          name="color"
          render={({ field, fieldState }) => (
            <Box>
              <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
                <TextField
                  size="small"
                  label={t("tagModal.form.color")}
                  value={field.value}
                  onChange={field.onChange}
                  error={!!fieldState.error}
                  helperText={fieldState.error ? t("tagModal.form.colorInvalid") : t("tagModal.form.colorHint")}
                  sx={{ width: 220 }}
                />
                <Box
                  component="input"
                  type="color"
                  aria-label={t("tagModal.form.colorPick")}
                  value={/^#[0-9a-f]{6}$/i.test(field.value) ? field.value : "#000000"}
                  onChange={(e: React.ChangeEvent<HTMLInputElement>) => field.onChange(e.target.value)}
                  sx={{ width: 40, height: 40, p: 0, border: 0, bgcolor: "transparent", cursor: "pointer" }}
                />
              </Stack>
              <Stack direction="row" spacing={0.75} sx={{ mt: 1 }} role="group" aria-label={t("tagModal.form.swatches")}>
                {TAG_SWATCHES.map((color) => (
                  <ButtonBase
                    key={color}
                    aria-label={color}
                    aria-pressed={field.value.toLowerCase() === color}
                    onClick={() => field.onChange(color)}
                    sx={{
                      width: 24,
                      height: 24,
                      borderRadius: "50%",
                      bgcolor: color,
                      outline: field.value.toLowerCase() === color ? "2px solid" : "none",
                      outlineOffset: 2,
                    }}
                  />
                ))}
              </Stack>
            </Box>
          )}
        />
      </Stack>
    </FormDialog>
  );
}
