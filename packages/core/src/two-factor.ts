import { normaliseProfile } from "./permissions.js";

/** Issue 22 §5: the values of the setting `twoFactorRequired`. */
export const TWO_FACTOR_REQUIREMENTS = ["off", "admins", "everyone"] as const;
export type TwoFactorRequirement = (typeof TWO_FACTOR_REQUIREMENTS)[number];

/** How many one-time recovery codes an enrolment (or a renewal) hands out. */
export const RECOVERY_CODE_COUNT = 10;

/** Whether the setting makes a second factor mandatory for a user of this profile (an unknown value is "off"). */
export function twoFactorRequiredFor(requirement: string | undefined, profile: string): boolean {
  if (requirement === "everyone") return true;
  return requirement === "admins" && normaliseProfile(profile) === "admin";
}

/** A six-digit code from the authenticator app, once spaces are gone (recovery codes have letters and a dash). */
export const isTotpCode = (code: string) => /^\d{6}$/.test(code.replace(/\s+/g, ""));
