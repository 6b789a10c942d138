/** What other features may use of the privacy feature. */
export { useEndUserSessions } from "./api/privacy";
export { ConsentPanel } from "./components/consent-panel";
export { ContactConsent } from "./components/contact-consent";
export { LegalHoldControl } from "./components/legal-hold-control";
export { RetentionPanel } from "./components/retention-panel";
