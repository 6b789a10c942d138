import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import type { RuleConditionInput, RuleConditionType } from "@zapdesk/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

export const CONDITION_TYPES: RuleConditionType[] = [
  "messageText",
  "firstMessage",
  "queue",
  "connection",
  "connectionKind",
  "tag",
  "contactField",
  "assignee",
  "status",
  "timeOfDay",
  "dayOfWeek",
];

const TIMEZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || "America/Sao_Paulo";

/** A new condition of a kind, with its fields empty (ids 0 until chosen: the server refuses them). */
export function blankCondition(type: RuleConditionType): RuleConditionInput {
  switch (type) {
    case "messageText":
      return { type, op: "contains", value: "" };
    case "firstMessage":
      return { type, value: true };
    case "queue":
      return { type, queueIds: [] };
    case "connection":
      return { type, whatsappIds: [0] };
    case "connectionKind":
      return { type, kinds: ["cloud"] };
    case "tag":
      return { type, tagId: 0, has: true };
    case "contactField":
      return { type, name: "", op: "equals", value: "" };
    case "assignee":
      return { type, value: "none" };
    case "status":
      return { type, statuses: ["pending"] };
    case "timeOfDay":
      return { type, from: "08:00", to: "18:00", timezone: TIMEZONE };
    case "dayOfWeek":
      return { type, days: [1, 2, 3, 4, 5], timezone: TIMEZONE };
  }
}

type Option = { id: number | string; name: string };

/** One condition of the rule form: its kind, then the fields of that kind. */
export function ConditionRow({
  index,
  condition,
  choices,
  onChange,
  onRemove,
}: {
  index: number;
  condition: RuleConditionInput;
  choices: { queues: Option[]; tags: Option[]; connections: Option[]; users: Option[] };
  onChange(condition: RuleConditionInput): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  const label = (key: string) => t(`automationRules.fields.${key}`);
  const select = (key: string, value: number | string, options: Option[], set: (v: string) => void): ReactNode => (
    <TextField
      select
      size="small"
      label={label(key)}
      value={value || ""}
      onChange={(e) => set(e.target.value)}
      sx={{ minWidth: 160 }}
    >
      {options.map((o) => (
        <MenuItem key={o.id} value={o.id}>
          {o.name}
        </MenuItem>
      ))}
    </TextField>
  );
  const text = (key: string, value: string, set: (v: string) => void): ReactNode => (
    <TextField
      size="small"
      label={label(key)}
      value={value}
      onChange={(e) => set(e.target.value)}
      sx={{ flex: 1, minWidth: 120 }}
    />
  );
  const named = (values: string[], prefix: string) => values.map((v) => ({ id: v, name: t(`automationRules.${prefix}.${v}`) }));
  const c = condition;

  const fields = (): ReactNode => {
    switch (c.type) {
      case "messageText":
        return (
          <>
            {select("op", c.op, named(["contains", "matches"], "ops"), (op) => onChange({ ...c, op: op as "contains" }))}
            {text("value", c.value, (value) => onChange({ ...c, value }))}
          </>
        );
      case "firstMessage":
        return select("value", String(c.value ?? true), named(["true", "false"], "yesNo"), (v) =>
          onChange({ ...c, value: v === "true" }),
        );
      case "queue":
        return select("queue", c.queueIds[0] ?? 0, choices.queues, (id) => onChange({ ...c, queueIds: [Number(id)] }));
      case "connection":
        return select("connection", c.whatsappIds[0] ?? 0, choices.connections, (id) =>
          onChange({ ...c, whatsappIds: [Number(id)] }),
        );
      case "connectionKind":
        return select("kind", c.kinds[0], named(["baileys", "cloud", "simulator"], "kinds"), (k) =>
          onChange({ ...c, kinds: [k as "cloud"] }),
        );
      case "tag":
        return (
          <>
            {select("tag", c.tagId, choices.tags, (id) => onChange({ ...c, tagId: Number(id) }))}
            {select("has", String(c.has ?? true), named(["true", "false"], "yesNo"), (v) =>
              onChange({ ...c, has: v === "true" }),
            )}
          </>
        );
      case "contactField":
        return (
          <>
            {text("fieldName", c.name, (name) => onChange({ ...c, name }))}
            {select("op", c.op, named(["equals", "contains", "empty", "notEmpty"], "ops"), (op) =>
              onChange({ ...c, op: op as "equals" }),
            )}
            {text("value", c.value ?? "", (value) => onChange({ ...c, value }))}
          </>
        );
      case "assignee":
        return select(
          "assignee",
          Array.isArray(c.value) ? c.value[0] : c.value,
          [...named(["none", "any"], "assignees"), ...choices.users],
          (v) => onChange({ ...c, value: v === "none" || v === "any" ? v : [Number(v)] }),
        );
      case "status":
        return select("status", c.statuses[0], named(["pending", "open", "closed"], "statuses"), (s) =>
          onChange({ ...c, statuses: [s as "open"] }),
        );
      case "timeOfDay":
        return (
          <>
            {text("from", c.from, (from) => onChange({ ...c, from }))}
            {text("to", c.to, (to) => onChange({ ...c, to }))}
            {text("timezone", c.timezone, (timezone) => onChange({ ...c, timezone }))}
          </>
        );
      case "dayOfWeek":
        return (
          <>
            {text("days", c.days.join(","), (v) =>
              onChange({
                ...c,
                days: v
                  .split(",")
                  .filter((d) => d.trim() !== "")
                  .map((d) => Number(d.trim())),
              }),
            )}
            {text("timezone", c.timezone, (timezone) => onChange({ ...c, timezone }))}
          </>
        );
    }
  };

  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{ alignItems: "flex-start", flexWrap: "wrap", rowGap: 1 }}
      data-testid={`condition-${index}`}
    >
      <TextField
        select
        size="small"
        label={t("automationRules.fields.condition", { n: index + 1 })}
        value={c.type}
        onChange={(e) => onChange(blankCondition(e.target.value as RuleConditionType))}
        sx={{ minWidth: 180 }}
      >
        {CONDITION_TYPES.map((type) => (
          <MenuItem key={type} value={type}>
            {t(`automationRules.conditionTypes.${type}`)}
          </MenuItem>
        ))}
      </TextField>
      {fields()}
      <IconButton aria-label={t("automationRules.buttons.removeCondition", { n: index + 1 })} onClick={onRemove}>
        <DeleteOutline />
      </IconButton>
    </Stack>
  );
}
