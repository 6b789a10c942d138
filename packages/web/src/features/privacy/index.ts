/** What other features may use of the privacy feature. */
export { useEndUserSessions } from "./api/privacy";
