import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import {
  ACTION_TYPES,
  type ActionInput,
  can,
  IDLE_TRIGGERS,
  RULE_TRIGGERS,
  type Rule,
  type RuleConditionInput,
  type RuleDryRun,
  type RuleTrigger,
} from "@zapdesk/core";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/ui/form-dialog";
import { RowListEditor } from "../../../components/ui/row-list-editor";
import { ApiError } from "../../../lib/api-client";
import { useAuth } from "../../../lib/auth";
import { toastError } from "../../../lib/error-handler";
import { useConnections } from "../../../lib/queries/use-connections";
import { useQueues } from "../../../lib/queries/use-queues";
import { toast } from "../../../lib/toast";
import { ActionListEditor, blankAction, useActionChoices } from "../../macros";
import { useDryRun, useSaveRule } from "../api/rules-api";
import { blankCondition, ConditionRow } from "./condition-row";
import { DryRunResult } from "./dry-run-result";

/**
 * Add or edit an automation rule: when (trigger), if (conditions), then (actions), the hourly limit
 * per ticket. "Dry run" shows what it would have done over the last 7 days before it is enabled.
 */
export function RuleModal({ open, onClose, rule }: { open: boolean; onClose(): void; rule: Rule | null }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const webhooks = can(user, "webhooks:manage");
  const { data: queues = [] } = useQueues();
  const { data: connections = [] } = useConnections();
  const actionChoices = { ...useActionChoices(webhooks), queues };
  const save = useSaveRule();
  const dryRun = useDryRun();
  const [name, setName] = useState("");
  const [trigger, setTrigger] = useState<RuleTrigger>("messageReceived");
  const [idleMinutes, setIdleMinutes] = useState("30");
  const [maxPerHour, setMaxPerHour] = useState("3");
  const [conditions, setConditions] = useState<RuleConditionInput[]>([]);
  const [actions, setActions] = useState<ActionInput[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitting, setSubmitting] = useState(false);
  const [result, setResult] = useState<RuleDryRun | null>(null);

  useEffect(() => {
    if (!open) return;
    setName(rule?.name ?? "");
    setTrigger(rule?.trigger ?? "messageReceived");
    setIdleMinutes(String(rule?.idleMinutes ?? 30));
    setMaxPerHour(String(rule?.maxPerHour ?? 3));
    setConditions(rule?.conditions ?? []);
    setActions(rule?.actions ?? [blankAction("addTag")]);
    setErrors({});
    setResult(null);
  }, [open, rule]);

  const idle = IDLE_TRIGGERS.includes(trigger);
  const definition = () => ({
    name,
    trigger,
    idleMinutes: idle ? Number(idleMinutes) : null,
    conditions,
    actions,
    maxPerHour: Number(maxPerHour),
  });
  const showErrors = (error: unknown) => {
    if (error instanceof ApiError && error.code === "ERR_VALIDATION" && error.details?.length) {
      setErrors(Object.fromEntries(error.details.map((d) => [d.path.slice(0, 2).join("."), d.message])));
    } else toastError(error);
  };
  const onDryRun = async () => {
    setErrors({});
    try {
      setResult(await dryRun.mutateAsync(definition()));
    } catch (error) {
      showErrors(error);
    }
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitting(true);
    try {
      await save.mutateAsync({ id: rule?.id, input: { ...definition(), enabled: rule?.enabled ?? false } });
      toast.success(t("ruleModal.success"));
      onClose();
    } catch (error) {
      showErrors(error);
    } finally {
      setSubmitting(false);
    }
  };
  const conditionChoices = {
    queues,
    tags: actionChoices.tags,
    users: actionChoices.users,
    connections: connections.map((c) => ({ id: c.id, name: c.name })),
  };
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      id="rule-modal"
      i18nKey="ruleModal"
      editing={!!rule}
      submitting={submitting}
      onSubmit={onSubmit}
    >
      <Stack spacing={2}>
        <TextField
          label={t("ruleModal.form.name")}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={!!errors.name}
          helperText={errors.name}
          autoFocus
          fullWidth
        />
        <Stack direction="row" spacing={1}>
          <TextField
            select
            label={t("ruleModal.form.trigger")}
            value={trigger}
            onChange={(e) => setTrigger(e.target.value as RuleTrigger)}
            sx={{ flex: 1 }}
          >
            {RULE_TRIGGERS.map((value) => (
              <MenuItem key={value} value={value}>
                {t(`automationRules.triggers.${value}`)}
              </MenuItem>
            ))}
          </TextField>
          {idle && (
            <TextField
              label={t("ruleModal.form.idleMinutes")}
              type="number"
              value={idleMinutes}
              onChange={(e) => setIdleMinutes(e.target.value)}
              error={!!errors.idleMinutes}
              helperText={errors.idleMinutes}
              sx={{ width: 160 }}
            />
          )}
          <TextField
            label={t("ruleModal.form.maxPerHour")}
            type="number"
            value={maxPerHour}
            onChange={(e) => setMaxPerHour(e.target.value)}
            sx={{ width: 160 }}
          />
        </Stack>
        <Typography variant="subtitle2">{t("ruleModal.form.conditions")}</Typography>
        <RowListEditor
          name="conditions"
          items={conditions}
          onChange={setConditions}
          errors={errors}
          blank={() => blankCondition("messageText")}
          addLabel={t("automationRules.buttons.addCondition")}
          renderRow={({ item, index, change, remove }) => (
            <ConditionRow index={index} condition={item} choices={conditionChoices} onChange={change} onRemove={remove} />
          )}
        />
        <Typography variant="subtitle2">{t("ruleModal.form.actions")}</Typography>
        <ActionListEditor
          actions={actions}
          onChange={setActions}
          choices={actionChoices}
          types={ACTION_TYPES.filter((type) => type !== "callWebhook" || webhooks)}
          errors={errors}
          added="addTag"
        />
        <Button variant="outlined" onClick={onDryRun} disabled={dryRun.isPending} sx={{ alignSelf: "flex-start" }}>
          {t("automationRules.buttons.dryRun")}
        </Button>
        {result && <DryRunResult result={result} />}
      </Stack>
    </FormDialog>
  );
}
