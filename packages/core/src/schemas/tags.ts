import { z } from "zod";
import { idSchema, MSG, requiredCheck, requiredText } from "./common.js";

/** A colour as the web's picker writes it: "#rgb" or "#rrggbb" (stored lowercased). */
export const hexColorSchema = z
  .string({ error: MSG.required })
  .trim()
  .min(1, requiredCheck)
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "Invalid colour")
  .transform((v) => v.toLowerCase());

export const tagInputSchema = z.strictObject({
  name: requiredText(1, 40),
  color: hexColorSchema,
});
export type TagInput = z.input<typeof tagInputSchema>;
export const tagUpdateSchema = tagInputSchema.partial();

export const tagSchema = z.object({ id: z.number(), name: z.string(), color: z.string() });
export type Tag = z.infer<typeof tagSchema>;

export const tagListSchema = z.object({ tags: z.array(tagSchema) });

/** The whole set of a ticket's or contact's tags (replaces what it had); duplicates collapse. */
export const tagIdsSchema = z
  .array(idSchema)
  .max(50)
  .transform((ids) => [...new Set(ids)]);

/** The "no tag" column of the board. */
export const NO_TAG_COLUMN = "none" as const;
export type BoardColumn = number | typeof NO_TAG_COLUMN;

/**
 * A card dragged on the board from one column to another (docs/tags.md): the source column's tag
 * is replaced by the target's, the other tags stay; dropped on "no tag" the ticket loses every tag
 * (the only way it belongs there); taken from "no tag" it gets the target tag alone.
 */
export function moveTags(tagIds: readonly number[], from: BoardColumn, to: BoardColumn): number[] {
  if (from === to) return [...tagIds];
  if (to === NO_TAG_COLUMN) return [];
  const kept = tagIds.filter((id) => id !== from && id !== to);
  return [...kept, to];
}
