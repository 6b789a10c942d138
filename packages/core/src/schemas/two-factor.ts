import { z } from "zod";
import { sessionSchema } from "./auth.js";
import { idParam, MSG } from "./common.js";

/**
 * Issue 22 §5: two-factor sign-in. A code is the six digits of the authenticator app (spaces
 * allowed) or, where a recovery code is accepted, one of the ten "xxxxx-xxxxx" codes.
 */
export const totpCodeSchema = z
  .string({ error: MSG.required })
  .transform((v) => v.replace(/\s+/g, ""))
  .pipe(
    z
      .string()
      .min(1, MSG.required)
      .regex(/^\d{6}$/, MSG.invalidCode),
  );

/** A code from the app or a recovery code (which one is told by its shape). */
export const secondFactorCodeSchema = z.string({ error: MSG.required }).trim().min(1, MSG.required).max(40, MSG.tooLong);

/** The login's answer when the password was right but a second step is due (no token yet). */
export const twoFactorChallengeSchema = z.object({
  /** `verify`: enter a code; `enrol`: the account must set up two-factor sign-in first. */
  twoFactor: z.enum(["verify", "enrol"]),
  /** Short-lived; only the two-factor sign-in routes accept it, never as an access token. */
  challenge: z.string(),
  expiresAt: z.iso.datetime(),
});
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeSchema>;

/** POST /auth/login answers a session or, for an account with (or needing) two-factor, a challenge. */
export const loginResultSchema = z.union([sessionSchema, twoFactorChallengeSchema]);
export type LoginResult = z.infer<typeof loginResultSchema>;

const challengeField = z.string({ error: MSG.required }).min(1, MSG.required).max(2000, MSG.tooLong);

export const twoFactorLoginSchema = z.strictObject({ challenge: challengeField, code: secondFactorCodeSchema });
export type TwoFactorLoginInput = z.input<typeof twoFactorLoginSchema>;

export const twoFactorChallengeBodySchema = z.strictObject({ challenge: challengeField });

export const twoFactorLoginConfirmSchema = z.strictObject({ challenge: challengeField, code: totpCodeSchema });

/** A new secret, before it is confirmed: the URI for the QR code and the secret for typing in. */
export const twoFactorEnrolmentSchema = z.object({
  secret: z.string(),
  otpauthUri: z.string(),
});
export type TwoFactorEnrolment = z.infer<typeof twoFactorEnrolmentSchema>;

export const twoFactorConfirmSchema = z.strictObject({ code: totpCodeSchema });

/** Shown once: only their hashes are kept. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** The enrolment at sign-in completes it: the session and the recovery codes at once. */
export const sessionWithRecoveryCodesSchema = sessionSchema.extend({ recoveryCodes: z.array(z.string()) });

export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  enabledAt: z.iso.datetime().nullable(),
  recoveryCodesLeft: z.number(),
  /** The setting `twoFactorRequired` applies to this user (turning it off is refused). */
  required: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/** Turning it off takes a current code (or a recovery code) or the account's password. */
export const twoFactorDisableSchema = z
  .strictObject({
    code: secondFactorCodeSchema.optional(),
    password: z.string().min(1, MSG.required).max(200, MSG.tooLong).optional(),
  })
  .refine((v) => v.code !== undefined || v.password !== undefined, { message: MSG.required, path: ["code"] });
export type TwoFactorDisableInput = z.input<typeof twoFactorDisableSchema>;

export const userTwoFactorParamsSchema = z.strictObject({ id: idParam });

/** Admins: which users have two-factor sign-in on (the users page marks them). */
export const twoFactorUsersSchema = z.object({ userIds: z.array(z.number()) });
