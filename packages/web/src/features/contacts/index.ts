/** What other features may use of the contacts feature. */
export { ContactDataDialog } from "./components/contact-data-dialog";
export { MergeContactDialog } from "./components/merge-contact-dialog";
