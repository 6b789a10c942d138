/** What other features may use of the two-factor feature (issue 22 §5). */
export { useTwoFactorUsers } from "./api/two-factor";
export { LoginTwoFactor } from "./components/login-two-factor";
export { ResetTwoFactorAction } from "./components/reset-two-factor-action";
