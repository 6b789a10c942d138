import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ActionInput, ActionType } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { type ActionChoices, ActionRow, blankAction } from "./action-row";

/**
 * The list of actions a macro or an automation rule runs (issue 23): a row per action, the server's
 * refusal under the action it names (`errors["actions.<i>"]`) and under the list (`errors.actions`),
 * and a button that adds a row of the `added` type.
 */
export function ActionListEditor({
  actions,
  onChange,
  choices,
  types,
  errors,
  added,
}: {
  actions: ActionInput[];
  onChange(actions: ActionInput[]): void;
  choices: ActionChoices;
  types: readonly ActionType[];
  errors: Record<string, string>;
  added: ActionType;
}) {
  const { t } = useTranslation();
  const error = (key: string) =>
    errors[key] && (
      <Typography variant="caption" color="error">
        {errors[key]}
      </Typography>
    );
  return (
    <>
      {actions.map((action, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the rows are the list's positions (no ids of their own)
        <Stack key={index} spacing={0.5}>
          <ActionRow
            index={index}
            action={action}
            choices={choices}
            types={types}
            onChange={(next) => onChange(actions.map((a, i) => (i === index ? next : a)))}
            onRemove={() => onChange(actions.filter((_, i) => i !== index))}
          />
          {error(`actions.${index}`)}
        </Stack>
      ))}
      {error("actions")}
      <Button onClick={() => onChange([...actions, blankAction(added)])} sx={{ alignSelf: "flex-start" }}>
        {t("macros.buttons.addAction")}
      </Button>
    </>
  );
}
