import { zodResolver } from "@hookform/resolvers/zod";
import Box from "@mui/material/Box";
import FormHelperText from "@mui/material/FormHelperText";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type BusinessHours, CLOSING_REASON_MODES, type ClosingReasonMode, type Queue, queueInputSchema } from "@zapdesk/core";
import { useEffect, useMemo, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/ui/form-dialog";
import { FormTextField } from "../../../components/ui/form-text-field";
import { submitForm } from "../../../lib/form-errors";
import { translateValidation } from "../../../lib/i18n";
import { QueueAutoAssignSwitch, useQueueAutoAssign } from "../../routing/auto-assign-fields";
import { useQueues } from "../api/get-queues";
import { useSaveQueue } from "../api/save-queue";
import { BusinessHoursSection } from "./business-hours-section";
import { ColorPicker } from "./color-picker";
import { QueueBotSection } from "./queue-bot-section";

interface QueueForm {
  name: string;
  color: string;
  greetingMessage: string;
  schedule: BusinessHours | null;
  /** Issue 23 §6: whether Resolve and Protocolo ask for a closing reason. */
  closingReason: ClosingReasonMode;
}

function withoutSchedule({ schedule: _, ...rest }: QueueForm) {
  return rest;
}

export function QueueModal({ open, onClose, queue }: { open: boolean; onClose(): void; queue: Queue | null }) {
  const { t } = useTranslation();
  const save = useSaveQueue();
  const queues = useQueues();
  // Colours the other queues hold: the picker shows them taken (the server refuses a clash anyway).
  const taken = useMemo(
    () => new Map((queues.data ?? []).filter((q) => q.id !== queue?.id).map((q) => [q.color.toUpperCase(), q.name])),
    [queues.data, queue?.id],
  );
  const { control, handleSubmit, reset, setError, formState } = useForm<QueueForm>({
    resolver: zodResolver(queueInputSchema) as never,
    defaultValues: { name: "", color: "", greetingMessage: "", schedule: null, closingReason: "off" },
  });

  // Automatic assignment (issue 13) is another resource, but a field of this form: saved with Save (issue 20).
  const autoAssign = useQueueAutoAssign(queue?.id);
  const [autoAssignChoice, setAutoAssignChoice] = useState<boolean | undefined>(undefined);
  const autoAssignChecked = autoAssignChoice ?? autoAssign.stored ?? false;

  useEffect(() => {
    if (open) setAutoAssignChoice(undefined);
    if (open)
      reset({
        name: queue?.name ?? "",
        color: queue?.color ?? "",
        greetingMessage: queue?.greetingMessage ?? "",
        schedule: queue?.schedule ?? null,
        closingReason: queue?.closingReason ?? "off",
      });
  }, [open, queue, reset]);

  const onSubmit = handleSubmit(async (values) => {
    await submitForm({
      // A new queue without business hours is always open: the field is left out.
      save: async () => {
        const saved = await save.mutateAsync({
          id: queue?.id,
          input: queue || values.schedule ? values : withoutSchedule(values),
        });
        if (autoAssignChoice !== undefined && autoAssignChoice !== autoAssign.stored)
          await autoAssign.save(saved.id, autoAssignChoice);
        return saved;
      },
      success: t("queueModal.success"),
      done: () => onClose(),
      setError,
      fields: ["name", "color", "greetingMessage", "schedule", "closingReason"],
    });
  });

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      id="queue-modal"
      i18nKey="queueModal"
      editing={!!queue}
      submitting={formState.isSubmitting}
      onSubmit={onSubmit}
    >
      <Stack spacing={2}>
        <FormTextField control={control} name="name" label={t("queueModal.form.name")} autoFocus fullWidth />
        <Controller
          control={control}
          name="color"
          render={({ field, fieldState }) => (
            <Box>
              <Stack direction="row" spacing={1} sx={{ alignItems: "center", mb: 1 }}>
                <Typography id="queue-color-label" variant="body2">
                  {t("queueModal.form.color")}
                </Typography>
                <Box
                  aria-hidden
                  sx={{
                    width: 20,
                    height: 20,
                    borderRadius: 1,
                    bgcolor: field.value || "transparent",
                    border: 1,
                    borderColor: "divider",
                  }}
                />
                <Typography variant="body2" color="text.secondary">
                  {field.value}
                </Typography>
              </Stack>
              <ColorPicker value={field.value} onChange={field.onChange} labelId="queue-color-label" taken={taken} />
              {fieldState.error && <FormHelperText error>{translateValidation(fieldState.error.message)}</FormHelperText>}
            </Box>
          )}
        />
        <FormTextField
          control={control}
          name="greetingMessage"
          label={t("queueModal.form.greetingMessage")}
          multiline
          minRows={4}
          fullWidth
        />
        <Controller
          control={control}
          name="closingReason"
          render={({ field }) => (
            <TextField
              select
              label={t("queueModal.form.closingReason")}
              value={field.value}
              onChange={(e) => field.onChange(e.target.value)}
              helperText={t("queueModal.form.closingReasonHint")}
              fullWidth
            >
              {CLOSING_REASON_MODES.map((mode) => (
                <MenuItem key={mode} value={mode}>
                  {t(`queueModal.form.closingReasonModes.${mode}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        {queue && autoAssign.allowed && (
          <QueueAutoAssignSwitch
            checked={autoAssignChecked}
            disabled={autoAssign.stored === undefined || formState.isSubmitting}
            onChange={setAutoAssignChoice}
          />
        )}
        <Controller
          control={control}
          name="schedule"
          render={({ field }) => (
            <BusinessHoursSection value={field.value} onChange={field.onChange} errors={formState.errors.schedule as never} />
          )}
        />
        {queue && <QueueBotSection queueId={queue.id} />}
      </Stack>
    </FormDialog>
  );
}
