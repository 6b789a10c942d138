import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { ACTION_TYPES, type ActionInput, type ActionType, type Queue } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { useClosingReasons } from "../../closing-reasons";
import type { useActionChoices } from "../api/macros-api";

/** A new action of a kind, with its fields empty (ids 0 until chosen: the server refuses them). */
export function blankAction(type: ActionType): ActionInput {
  switch (type) {
    case "assignAgent":
      return { type, userId: 0 };
    case "assignQueue":
      return { type, queueId: 0 };
    case "addTag":
    case "removeTag":
      return { type, tagId: 0 };
    case "sendMessage":
    case "addNote":
      return { type, body: "" };
    case "sendTemplate":
      return { type, name: "", language: "pt_BR", bodyParams: [] };
    case "resolve":
      return { type, closingReasonId: null };
    case "returnToQueue":
      return { type };
    case "setContactField":
      return { type, name: "", value: "" };
    case "callWebhook":
      return { type, webhookId: 0 };
    case "setContactOwner":
      return { type, userId: 0, onlyIfNone: false };
  }
}

export type ActionChoices = ReturnType<typeof useActionChoices> & { queues: Queue[] };

/** One action of the editor: its kind, then the fields of that kind. */
export function ActionRow({
  index,
  action,
  choices,
  types,
  onChange,
  onRemove,
}: {
  index: number;
  action: ActionInput;
  choices: ActionChoices;
  types: readonly ActionType[];
  onChange(action: ActionInput): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  const { data: reasons = [] } = useClosingReasons();
  const label = (key: string) => t(`macros.fields.${key}`);
  const select = (key: string, value: number, options: { id: number; name: string }[], set: (id: number) => void) => (
    <TextField
      select
      size="small"
      label={label(key)}
      value={value || ""}
      onChange={(e) => set(Number(e.target.value))}
      sx={{ minWidth: 200 }}
    >
      {options.map((o) => (
        <MenuItem key={o.id} value={o.id}>
          {o.name}
        </MenuItem>
      ))}
    </TextField>
  );
  const text = (key: string, value: string, set: (v: string) => void, multiline = false) => (
    <TextField
      size="small"
      label={label(key)}
      value={value}
      multiline={multiline}
      onChange={(e) => set(e.target.value)}
      sx={{ flex: 1, minWidth: 160 }}
    />
  );

  const fields = () => {
    switch (action.type) {
      case "assignAgent":
        return select("user", action.userId, choices.users, (userId) => onChange({ ...action, userId }));
      case "assignQueue":
        return select("queue", action.queueId, choices.queues, (queueId) => onChange({ ...action, queueId }));
      case "addTag":
      case "removeTag":
        return select("tag", action.tagId, choices.tags, (tagId) => onChange({ ...action, tagId }));
      case "sendMessage":
      case "addNote":
        return text("body", action.body, (body) => onChange({ ...action, body }), true);
      case "sendTemplate":
        return (
          <>
            {text("templateName", action.name, (name) => onChange({ ...action, name }))}
            {text("language", action.language, (language) => onChange({ ...action, language }))}
            {text("bodyParams", (action.bodyParams ?? []).join("|"), (v) =>
              onChange({ ...action, bodyParams: v ? v.split("|") : [] }),
            )}
          </>
        );
      case "resolve":
        return select(
          "closingReason",
          action.closingReasonId ?? 0,
          reasons.filter((r) => !r.archived),
          (closingReasonId) => onChange({ ...action, closingReasonId }),
        );
      case "setContactField":
        return (
          <>
            {text("fieldName", action.name, (name) => onChange({ ...action, name }))}
            {text("fieldValue", action.value, (value) => onChange({ ...action, value }))}
          </>
        );
      case "callWebhook":
        return select(
          "webhook",
          action.webhookId,
          choices.webhooks.map((w) => ({ id: w.id, name: w.url })),
          (webhookId) => onChange({ ...action, webhookId }),
        );
      case "setContactOwner":
        return select("owner", action.userId ?? 0, choices.users, (userId) => onChange({ ...action, userId }));
      default:
        return null;
    }
  };

  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{ alignItems: "flex-start", flexWrap: "wrap", rowGap: 1 }}
      data-testid={`action-${index}`}
    >
      <TextField
        select
        size="small"
        label={t("macros.fields.type", { n: index + 1 })}
        value={action.type}
        onChange={(e) => onChange(blankAction(e.target.value as ActionType))}
        sx={{ minWidth: 200 }}
      >
        {ACTION_TYPES.filter((type) => types.includes(type) || type === action.type).map((type) => (
          <MenuItem key={type} value={type}>
            {t(`macros.actionTypes.${type}`)}
          </MenuItem>
        ))}
      </TextField>
      {fields()}
      <IconButton aria-label={t("macros.buttons.removeAction", { n: index + 1 })} onClick={onRemove}>
        <DeleteOutline />
      </IconButton>
    </Stack>
  );
}
