import { type LoginInput, loginSchema } from "@zapdesk/core";

export type LoginField = keyof LoginInput;
export type LoginCheck =
  | { values: LoginInput; errors?: undefined }
  | { values?: undefined; errors: Partial<Record<LoginField, string>> };

/**
 * Core's login schema; a chunk of its own so the login screen paints without zod. Each field
 * gets the first message zod reports for it, as a form resolver would.
 */
export function checkLogin(values: LoginInput): LoginCheck {
  const result = loginSchema.safeParse(values);
  if (result.success) return { values: result.data };
  const errors: Partial<Record<LoginField, string>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as LoginField;
    errors[field] ??= issue.message;
  }
  return { errors };
}
