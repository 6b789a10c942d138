import { z } from "zod";
import { NEW_TICKET_DELAYS, type SettingKey } from "../constants.js";
import { TWO_FACTOR_REQUIREMENTS } from "../two-factor.js";
import { MSG } from "./common.js";

const enabledDisabled = z.enum(["enabled", "disabled"]);
const optionalHttpUrl = z
  .string()
  .trim()
  .max(2000, MSG.tooLong)
  .refine((v) => v === "" || /^https?:\/\/[^\s]+$/i.test(v), MSG.invalidUrl);

/** What each writable setting accepts; `userApiToken` is generated, never typed. */
export const SETTING_VALUE_SCHEMAS: Partial<Record<SettingKey, z.ZodType<string>>> = {
  userCreation: enabledDisabled,
  timeCreateNewTicket: z
    .string()
    .refine((v) => (NEW_TICKET_DELAYS as readonly number[]).includes(Number(v)), "Not an allowed delay"),
  call: enabledDisabled,
  CheckMsgIsGroup: enabledDisabled,
  protocolWebhookUrl: optionalHttpUrl,
  salesPageUrl: optionalHttpUrl,
  communityPageUrl: optionalHttpUrl,
  webhookAllowPrivate: enabledDisabled,
  showChoosingQueue: enabledDisabled,
  protocolWebhookAllowPrivate: enabledDisabled,
  twoFactorRequired: z.enum(TWO_FACTOR_REQUIREMENTS),
  ownerOnResolve: enabledDisabled,
};

export const settingKeyParamsSchema = z.strictObject({ key: z.string().min(1).max(100) });
export const settingUpdateSchema = z.strictObject({ value: z.string().max(2000, MSG.tooLong) });

export const settingSchema = z.object({ key: z.string(), value: z.string() });
export type Setting = z.infer<typeof settingSchema>;
