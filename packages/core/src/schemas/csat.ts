import { z } from "zod";

/** Issue 11 CSAT: the answers of a group of rated tickets. */
export const ratingFiguresSchema = z.object({
  /** How many tickets were rated. */
  count: z.number(),
  /** The mean rating (1–5, two decimals), null when nothing was rated. */
  average: z.number().nullable(),
  /** How many answered 1, 2, 3, 4 and 5 (five numbers, in that order). */
  distribution: z.array(z.number()).length(5),
});
export type RatingFigures = z.infer<typeof ratingFiguresSchema>;

/** GET /api/dashboard/ratings: satisfaction over the tickets rated in the chosen month, per agent and per queue. */
export const ratingDashboardSchema = z.object({
  overall: ratingFiguresSchema,
  byUser: z.array(ratingFiguresSchema.extend({ userId: z.number().nullable(), name: z.string().nullable() })),
  byQueue: z.array(
    ratingFiguresSchema.extend({ queueId: z.number().nullable(), name: z.string().nullable(), color: z.string().nullable() }),
  ),
});
export type RatingDashboard = z.infer<typeof ratingDashboardSchema>;

/** The default question suggested in the connection form (pt). */
export const DEFAULT_RATING_MESSAGE = "Como você avalia o nosso atendimento? Responda com um número de 1 a 5.";
