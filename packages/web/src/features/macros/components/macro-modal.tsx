import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { ACTION_TYPES, type ActionInput, can, type Macro } from "@zapdesk/core";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/ui/form-dialog";
import { ApiError } from "../../../lib/api-client";
import { useAuth } from "../../../lib/auth";
import { toastError } from "../../../lib/error-handler";
import { delay, SUBMIT_DELAY_MS } from "../../../lib/form-errors";
import { useQueues } from "../../../lib/queries/use-queues";
import { toast } from "../../../lib/toast";
import { useActionChoices, useSaveMacro } from "../api/macros-api";
import { ActionListEditor } from "./action-list-editor";
import { blankAction } from "./action-row";

/**
 * Add or edit a macro: its name, shared or personal (sharing needs macros:manage), and its actions
 * in order. A server refusal of one action (it names something that no longer exists) shows under it.
 */
export function MacroModal({ open, onClose, macro }: { open: boolean; onClose(): void; macro: Macro | null }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const manages = can(user, "macros:manage");
  const webhooks = can(user, "webhooks:manage");
  const { data: queues = [] } = useQueues();
  const choices = { ...useActionChoices(webhooks), queues };
  const save = useSaveMacro();
  const [name, setName] = useState("");
  const [shared, setShared] = useState(false);
  const [actions, setActions] = useState<ActionInput[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    if (!open) return;
    setName(macro?.name ?? "");
    setShared(macro?.shared ?? false);
    setActions(macro?.actions ?? [blankAction("addNote")]);
    setErrors({});
  }, [open, macro]);

  const types = ACTION_TYPES.filter((type) => type !== "callWebhook" || webhooks);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitting(true);
    await delay(SUBMIT_DELAY_MS);
    try {
      await save.mutateAsync({ id: macro?.id, input: { name, shared, actions } });
      toast.success(t("macroModal.success"));
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.code === "ERR_VALIDATION" && error.details?.length) {
        setErrors(Object.fromEntries(error.details.map((d) => [d.path.slice(0, 2).join("."), d.message])));
      } else toastError(error);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      id="macro-modal"
      i18nKey="macroModal"
      editing={!!macro}
      submitting={submitting}
      onSubmit={onSubmit}
    >
      <Stack spacing={2}>
        <TextField
          label={t("macroModal.form.name")}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={!!errors.name}
          helperText={errors.name}
          autoFocus
          fullWidth
        />
        {manages && (
          <FormControlLabel
            control={<Checkbox checked={shared} onChange={(e) => setShared(e.target.checked)} />}
            label={t("macroModal.form.shared")}
          />
        )}
        <Typography variant="subtitle2">{t("macroModal.form.actions")}</Typography>
        <ActionListEditor
          actions={actions}
          onChange={setActions}
          choices={choices}
          types={types}
          errors={errors}
          added="addNote"
        />
      </Stack>
    </FormDialog>
  );
}
