/** What other features may use of the macros (issue 23 §2): the ticket's "Run macro" and the palette's entries. */
export { macroKeys, useMacros } from "./api/macros-api";
export { RunMacroDialog, useMacroRunner } from "./components/run-macro-dialog";
