import { zodResolver } from "@hookform/resolvers/zod";
import Checkbox from "@mui/material/Checkbox";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import { WEBHOOK_EVENTS, type Webhook, type WebhookCreated, type WebhookEvent, webhookInputSchema } from "@zapdesk/core";
import { useEffect } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/ui/form-dialog";
import { FormTextField } from "../../../components/ui/form-text-field";
import { submitForm } from "../../../lib/form-errors";
import { useSaveWebhook } from "../api/webhooks";

interface Props {
  open: boolean;
  onClose(): void;
  webhook: Webhook | null;
  /** A new webhook was created: its secret, to show once. */
  onCreated(created: WebhookCreated): void;
}

export function WebhookModal({ open, onClose, webhook, onCreated }: Props) {
  const { t } = useTranslation();
  const save = useSaveWebhook();
  const { control, handleSubmit, reset, setError, formState } = useForm({
    resolver: zodResolver(webhookInputSchema),
    defaultValues: { url: "", events: [] as WebhookEvent[], enabled: true },
  });

  useEffect(() => {
    if (open) reset({ url: webhook?.url ?? "", events: webhook?.events ?? [], enabled: webhook?.enabled ?? true });
  }, [open, webhook, reset]);

  const onSubmit = handleSubmit(async (values) => {
    await submitForm({
      save: async () => {
        const saved = await save.mutateAsync({ id: webhook?.id, input: values });
        if (!webhook) onCreated(saved as WebhookCreated);
      },
      success: t("webhooks.toasts.saved"),
      done: () => onClose(),
      setError,
      fields: ["url", "events", "enabled"],
    });
  });

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      id="webhook-modal"
      i18nKey="webhooks.modal"
      editing={!!webhook}
      submitting={formState.isSubmitting}
      onSubmit={onSubmit}
    >
      <Stack spacing={2}>
        <FormTextField
          control={control}
          name="url"
          label={t("webhooks.modal.form.url")}
          placeholder="https://example.com/zapdesk"
          helperText={t("webhooks.modal.form.urlHelp")}
          autoFocus
          fullWidth
        />
        <Controller
          control={control}
          name="events"
          render={({ field, fieldState }) => (
            <FormControl component="fieldset" error={!!fieldState.error}>
              <FormLabel component="legend">{t("webhooks.modal.form.events")}</FormLabel>
              <FormGroup>
                {WEBHOOK_EVENTS.map((event) => (
                  <FormControlLabel
                    key={event}
                    label={`${t(`webhooks.events.${event.replace(".", "_")}`)} (${event})`}
                    control={
                      <Checkbox
                        checked={field.value.includes(event)}
                        onChange={(_e, checked) =>
                          field.onChange(checked ? [...field.value, event] : field.value.filter((e) => e !== event))
                        }
                      />
                    }
                  />
                ))}
              </FormGroup>
              {fieldState.error && <FormHelperText>{t("webhooks.modal.form.eventsRequired")}</FormHelperText>}
            </FormControl>
          )}
        />
        <Controller
          control={control}
          name="enabled"
          render={({ field }) => (
            <FormControlLabel
              label={t("webhooks.modal.form.enabled")}
              control={<Switch checked={field.value} onChange={(_e, checked) => field.onChange(checked)} />}
            />
          )}
        />
      </Stack>
    </FormDialog>
  );
}
