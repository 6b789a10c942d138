/** What other features may use of the privacy feature. */
export { useEndUserSessions } from "./api/privacy";
export { LegalHoldControl } from "./components/legal-hold-control";
export { RetentionPanel } from "./components/retention-panel";
