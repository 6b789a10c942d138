/** What other features may use of the macros (issue 23 §2): the ticket's "Run macro" and the palette's entries. */
/** Issue 23 §1: the automation rules' form edits the same action list. */
export { macroKeys, useActionChoices, useMacros } from "./api/macros-api";
export { ActionListEditor } from "./components/action-list-editor";
export { blankAction } from "./components/action-row";
export { RunMacroDialog, useMacroRunner } from "./components/run-macro-dialog";
