/** What other features may use of the menus (issue 23 §3): the connections page opens a connection's tree editor. */
export { MenuEditorDialog } from "./components/menu-editor-dialog";
