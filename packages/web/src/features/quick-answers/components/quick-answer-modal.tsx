import { zodResolver } from "@hookform/resolvers/zod";
import Stack from "@mui/material/Stack";
import { type QuickAnswer, quickAnswerInputSchema } from "@zapdesk/core";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/ui/form-dialog";
import { FormTextField } from "../../../components/ui/form-text-field";
import { submitForm } from "../../../lib/form-errors";
import { useSaveQuickAnswer } from "../api/save-quick-answer";

export function QuickAnswerModal({ open, onClose, answer }: { open: boolean; onClose(): void; answer: QuickAnswer | null }) {
  const { t } = useTranslation();
  const save = useSaveQuickAnswer();
  const { control, handleSubmit, reset, setError, formState } = useForm({
    resolver: zodResolver(quickAnswerInputSchema),
    defaultValues: { shortcut: "", message: "" },
  });

  useEffect(() => {
    if (open) reset({ shortcut: answer?.shortcut ?? "", message: answer?.message ?? "" });
  }, [open, answer, reset]);

  const onSubmit = handleSubmit(async (values) => {
    await submitForm({
      save: () => save.mutateAsync({ id: answer?.id, input: values }),
      success: t("quickAnswersModal.success"),
      done: () => onClose(),
      setError,
      fields: ["shortcut", "message"],
    });
  });

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      id="quick-answer-modal"
      i18nKey="quickAnswersModal"
      editing={!!answer}
      submitting={formState.isSubmitting}
      onSubmit={onSubmit}
    >
      <Stack spacing={2}>
        <FormTextField control={control} name="shortcut" label={t("quickAnswersModal.form.shortcut")} autoFocus fullWidth />
        <FormTextField
          control={control}
          name="message"
          label={t("quickAnswersModal.form.message")}
          multiline
          minRows={5}
          fullWidth
        />
      </Stack>
    </FormDialog>
  );
}
