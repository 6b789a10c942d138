import Divider from "@mui/material/Divider";
import FormControlLabel from "@mui/material/FormControlLabel";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import type { Connection, ConnectionInput } from "@zapdesk/core";
import { useEffect, useMemo } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { QueueSelect } from "../../../components/queue-select";
import { FormDialog } from "../../../components/ui/form-dialog";
import { FormTextField } from "../../../components/ui/form-text-field";
import { submitForm } from "../../../lib/form-errors";
import { useWhatsapp } from "../api/get-whatsapp";
import { type ConnectionUpdate, useSaveWhatsapp } from "../api/save-whatsapp";
import { CloudFields } from "./cloud-fields";
import { type ConnectionForm, connectionResolver, emptyForm, formFromConnection, hasPacing, payloadOf } from "./connection-form";
import { ProviderPicker } from "./provider-picker";
import { QrFields } from "./qr-fields";
import { RatingFields } from "./rating-fields";

/** Fields the server may name in a validation error (nested ones are matched by their first segment). */
const FIELDS = [
  "name",
  "greetingMessage",
  "farewellMessage",
  "queueIds",
  "pairingPhone",
  "pacing",
  "cloud",
  "ratingMessage",
  "ratingTimeoutMinutes",
];

interface ConnectionModalProps {
  open: boolean;
  onClose(): void;
  connectionId?: number;
  /** After a save: the page may keep the dialog open on the new connection (a Cloud connection's webhook URL). */
  onSaved?(connection: Connection, created: boolean): void;
}

export function ConnectionModal({ open, onClose, connectionId, onSaved }: ConnectionModalProps) {
  const { t } = useTranslation();
  const save = useSaveWhatsapp();
  const editing = !!connectionId;
  const { data: connection, isLoading } = useWhatsapp(open ? connectionId : undefined);
  const resolver = useMemo(() => connectionResolver(editing), [editing]);
  const { control, handleSubmit, reset, setError, setValue, formState } = useForm<ConnectionForm>({
    resolver,
    defaultValues: emptyForm(),
  });
  const provider = useWatch({ control, name: "provider" });

  useEffect(() => {
    if (!open) return;
    reset(connectionId && connection ? formFromConnection(connection) : emptyForm());
  }, [open, connectionId, connection, reset]);

  const onSubmit = handleSubmit(async (values) => {
    const payload = payloadOf(values, editing);
    await submitForm({
      save: async () => {
        const saved = connectionId
          ? await save.mutateAsync({ id: connectionId, input: payload as ConnectionUpdate })
          : await save.mutateAsync({ input: payload as ConnectionInput });
        onSaved?.(saved, !connectionId);
      },
      success: t("whatsappModal.success"),
      done: () => (onSaved ? undefined : onClose()),
      setError,
      fields: FIELDS,
    });
  });

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      id="connection-modal"
      i18nKey="whatsappModal"
      editing={editing}
      loading={!!(connectionId && isLoading)}
      submitting={formState.isSubmitting}
      onSubmit={onSubmit}
    >
      <Stack spacing={2}>
        <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
          <FormTextField control={control} name="name" label={t("whatsappModal.form.name")} autoFocus fullWidth />
          <Controller
            control={control}
            name="isDefault"
            render={({ field }) => (
              <FormControlLabel
                control={<Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />}
                label={t("whatsappModal.form.default")}
              />
            )}
          />
        </Stack>
        <ProviderPicker
          value={provider}
          disabled={editing}
          onChange={(value) => setValue("provider", value, { shouldDirty: true })}
        />
        {provider === "cloud" ? (
          <CloudFields control={control} saved={connection?.cloud} />
        ) : (
          hasPacing(provider) && <QrFields control={control} provider={provider} editing={editing} />
        )}
        <Divider />
        <FormTextField
          control={control}
          name="greetingMessage"
          label={t("whatsappModal.form.greetingMessage")}
          multiline
          minRows={3}
          fullWidth
        />
        <FormTextField
          control={control}
          name="farewellMessage"
          label={t("whatsappModal.form.farewellMessage")}
          multiline
          minRows={3}
          fullWidth
        />
        <Controller
          control={control}
          name="queueIds"
          render={({ field }) => <QueueSelect value={field.value} onChange={field.onChange} />}
        />
        <RatingFields control={control} setValue={setValue} />
      </Stack>
    </FormDialog>
  );
}
