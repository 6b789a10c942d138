import { z } from "zod";

/** Validation messages: the spec's English texts, translated by the web under `validation`. */
export const MSG = {
  required: "Required",
  tooShort: "Too Short!",
  tooLong: "Too Long!",
  invalidEmail: "Invalid email",
  invalidNumber: "Invalid number",
  invalidUrl: "Invalid URL",
  invalidCode: "Invalid code",
} as const;

/** An empty field is "Required" only, not also "Too Short!". */
export const requiredCheck = { error: MSG.required, abort: true } as const;

/** An id in a JSON body: a real number, never a coerced string or boolean. */
export const idSchema = z.number().int().positive().max(2147483647);
/**
 * An id in a path or query string, where everything arrives as text: decimal digits only. No
 * sign, spaces, hex ("0x10"), exponent ("1e1") or leading zero ("016"), so one id has one
 * spelling. A number (a query array parsed as JSON) is checked as it is.
 */
export const idParam = z.union([
  idSchema,
  z
    .string()
    .regex(/^[1-9]\d{0,9}$/, "Invalid id")
    .transform(Number)
    .pipe(idSchema),
]);
export const idParamsSchema = z.strictObject({ id: idParam });

export const pageNumberSchema = z.coerce.number().int().min(1).max(100000).default(1);
export const searchParamSchema = z.string().trim().max(200).default("");

export const listQuerySchema = z.strictObject({
  searchParam: searchParamSchema,
  pageNumber: pageNumberSchema,
});
export type ListQuery = z.infer<typeof listQuerySchema>;

export function requiredText(min: number, max: number) {
  return z.string({ error: MSG.required }).trim().min(1, requiredCheck).min(min, MSG.tooShort).max(max, MSG.tooLong);
}

export const emailSchema = z
  .string({ error: MSG.required })
  .trim()
  .toLowerCase()
  .min(1, MSG.required)
  .max(254, MSG.tooLong)
  .pipe(z.email(MSG.invalidEmail));

export const optionalEmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, MSG.tooLong)
  .refine((v) => v === "" || z.email().safeParse(v).success, MSG.invalidEmail);

export const queueIdsSchema = z
  .array(idSchema)
  .max(500)
  .transform((ids) => [...new Set(ids)]);

export const deletedSchema = z.object({ message: z.string() });

export const timestampsSchema = {
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
};
