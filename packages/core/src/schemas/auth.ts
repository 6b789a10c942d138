import { z } from "zod";
import { emailSchema, MSG, requiredCheck, requiredText } from "./common.js";
import { userSchema } from "./users.js";

export const loginSchema = z.strictObject({
  email: z.string({ error: MSG.required }).trim().toLowerCase().min(1, MSG.required).max(254, MSG.tooLong),
  password: z.string({ error: MSG.required }).min(1, MSG.required).max(200, MSG.tooLong),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const signupSchema = z.strictObject({
  name: requiredText(2, 50),
  email: emailSchema,
  password: z.string({ error: MSG.required }).min(1, requiredCheck).min(5, MSG.tooShort).max(50, MSG.tooLong),
});
export type SignupInput = z.infer<typeof signupSchema>;

export const sessionSchema = z.object({ token: z.string(), user: userSchema });
export type Session = z.infer<typeof sessionSchema>;
