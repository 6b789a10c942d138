import { zodResolver } from "@hookform/resolvers/zod";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import { type QuickAnswer, quickAnswerInputSchema } from "@zapdesk/core";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormTextField } from "../../../components/ui/form-text-field";
import { delay, handleFormError, SUBMIT_DELAY_MS } from "../../../lib/form-errors";
import { toast } from "../../../lib/toast";
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
    await delay(SUBMIT_DELAY_MS);
    try {
      await save.mutateAsync({ id: answer?.id, input: values });
      toast.success(t("quickAnswersModal.success"));
      onClose();
    } catch (error) {
      handleFormError(error, setError, ["shortcut", "message"]);
    }
  });

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="quick-answer-modal-title">
      <DialogTitle id="quick-answer-modal-title">
        {answer ? t("quickAnswersModal.title.edit") : t("quickAnswersModal.title.add")}
      </DialogTitle>
      <form noValidate onSubmit={onSubmit}>
        <DialogContent dividers>
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
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit" disabled={formState.isSubmitting}>
            {t("quickAnswersModal.buttons.cancel")}
          </Button>
          <Button type="submit" variant="contained" disabled={formState.isSubmitting}>
            {answer ? t("quickAnswersModal.buttons.okEdit") : t("quickAnswersModal.buttons.okAdd")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
