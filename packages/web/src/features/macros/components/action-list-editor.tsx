import type { ActionInput, ActionType } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { RowListEditor } from "../../../components/ui/row-list-editor";
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
  return (
    <RowListEditor
      name="actions"
      items={actions}
      onChange={onChange}
      errors={errors}
      blank={() => blankAction(added)}
      addLabel={t("macros.buttons.addAction")}
      renderRow={({ item, index, change, remove }) => (
        <ActionRow index={index} action={item} choices={choices} types={types} onChange={change} onRemove={remove} />
      )}
    />
  );
}
