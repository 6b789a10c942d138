/** What other features may use of contact owners (issue 23 §5). */
export { type OwnerFilter as OwnerFilterValue, ownedContactsKey, useContactsPage } from "./api/contact-owner-api";
export { ContactOwnerField } from "./components/contact-owner-field";
export { MyCustomersToggle } from "./components/my-customers-toggle";
export { OwnerFilter } from "./components/owner-filter";
