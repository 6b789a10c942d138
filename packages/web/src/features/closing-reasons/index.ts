/** What other features may use of the closing reasons (issue 23 §6). */
export { closingReasonKeys, useClosingReasons } from "./api/closing-reasons-api";
export { ClosingReasonPicker } from "./components/closing-reason-picker";
