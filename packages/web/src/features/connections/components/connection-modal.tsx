import { zodResolver } from "@hookform/resolvers/zod";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import InputLabel from "@mui/material/InputLabel";
import MenuItem from "@mui/material/MenuItem";
import Select from "@mui/material/Select";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import { CONNECTION_PROVIDERS, type ConnectionProvider, connectionInputSchema } from "@zapdesk/core";
import { useEffect } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { QueueSelect } from "../../../components/queue-select";
import { FormDialog } from "../../../components/ui/form-dialog";
import { FormTextField } from "../../../components/ui/form-text-field";
import { submitForm } from "../../../lib/form-errors";
import { useWhatsapp } from "../api/get-whatsapp";
import { useSaveWhatsapp } from "../api/save-whatsapp";

interface ConnectionForm {
  name: string;
  provider: ConnectionProvider;
  greetingMessage: string;
  farewellMessage: string;
  isDefault: boolean;
  queueIds: number[];
}

const EMPTY: ConnectionForm = {
  name: "",
  provider: "baileys",
  greetingMessage: "",
  farewellMessage: "",
  isDefault: false,
  queueIds: [],
};

export function ConnectionModal({ open, onClose, connectionId }: { open: boolean; onClose(): void; connectionId?: number }) {
  const { t } = useTranslation();
  const save = useSaveWhatsapp();
  const { data: connection, isLoading } = useWhatsapp(open ? connectionId : undefined);
  const { control, handleSubmit, reset, setError, formState } = useForm<ConnectionForm>({
    resolver: zodResolver(connectionInputSchema) as never,
    defaultValues: EMPTY,
  });

  useEffect(() => {
    if (!open) return;
    reset(
      connectionId && connection
        ? {
            name: connection.name,
            provider: connection.provider,
            greetingMessage: connection.greetingMessage,
            farewellMessage: connection.farewellMessage,
            isDefault: connection.isDefault,
            queueIds: connection.queues.map((q) => q.id),
          }
        : EMPTY,
    );
  }, [open, connectionId, connection, reset]);

  const onSubmit = handleSubmit(async (values) => {
    await submitForm({
      save: () => save.mutateAsync({ id: connectionId, input: values }),
      success: t("whatsappModal.success"),
      done: () => onClose(),
      setError,
      fields: ["name", "greetingMessage", "farewellMessage", "queueIds"],
    });
  });

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      id="connection-modal"
      i18nKey="whatsappModal"
      editing={!!connectionId}
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
        <Controller
          control={control}
          name="provider"
          render={({ field }) => (
            <FormControl fullWidth disabled={!!connectionId}>
              <InputLabel id="connection-provider-label">{t("whatsappModal.form.provider")}</InputLabel>
              <Select {...field} labelId="connection-provider-label" label={t("whatsappModal.form.provider")}>
                {CONNECTION_PROVIDERS.map((p) => (
                  <MenuItem key={p} value={p}>
                    {t(`whatsappModal.form.providers.${p}`)}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
          )}
        />
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
      </Stack>
    </FormDialog>
  );
}
