import { zodResolver } from "@hookform/resolvers/zod";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import Stack from "@mui/material/Stack";
import { type ClosingReason, closingReasonUpdateSchema } from "@zapdesk/core";
import { useEffect } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/ui/form-dialog";
import { FormTextField } from "../../../components/ui/form-text-field";
import { submitForm } from "../../../lib/form-errors";
import { useSaveClosingReason } from "../api/closing-reasons-api";

interface ClosingReasonForm {
  name: string;
  asksValue: boolean;
  archived: boolean;
}

/** Add or edit a closing reason: its name, whether it asks for a value, archived (edit only). */
export function ClosingReasonModal({ open, onClose, reason }: { open: boolean; onClose(): void; reason: ClosingReason | null }) {
  const { t } = useTranslation();
  const save = useSaveClosingReason();
  const { control, handleSubmit, reset, setError, formState } = useForm<ClosingReasonForm>({
    resolver: zodResolver(closingReasonUpdateSchema.required({ name: true })) as never,
    defaultValues: { name: "", asksValue: false, archived: false },
  });

  useEffect(() => {
    if (open) reset({ name: reason?.name ?? "", asksValue: reason?.asksValue ?? false, archived: reason?.archived ?? false });
  }, [open, reason, reset]);

  const onSubmit = handleSubmit(async (values) => {
    await submitForm({
      save: () =>
        save.mutateAsync({
          id: reason?.id,
          input: reason ? values : { name: values.name, asksValue: values.asksValue },
        }),
      success: t("closingReasonModal.success"),
      done: onClose,
      setError,
      fields: ["name"],
    });
  });

  const checkbox = (name: "asksValue" | "archived", label: string) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormControlLabel
          control={<Checkbox checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />}
          label={label}
        />
      )}
    />
  );

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      id="closing-reason-modal"
      i18nKey="closingReasonModal"
      editing={!!reason}
      submitting={formState.isSubmitting}
      onSubmit={onSubmit}
    >
      <Stack spacing={1}>
        <FormTextField control={control} name="name" label={t("closingReasonModal.form.name")} autoFocus fullWidth />
        {checkbox("asksValue", t("closingReasonModal.form.asksValue"))}
        {reason && checkbox("archived", t("closingReasonModal.form.archived"))}
      </Stack>
    </FormDialog>
  );
}
