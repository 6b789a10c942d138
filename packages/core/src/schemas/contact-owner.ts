import { z } from "zod";
import { idSchema } from "./common.js";

/**
 * Issue 23 §5, PUT /contacts/:id/owner: the contact's owner, or null for none. An admin sets anyone;
 * an agent takes an unowned contact for themself, or lets go of one they own (docs/contact-owner.md).
 */
export const contactOwnerSetSchema = z.strictObject({ userId: idSchema.nullable() });
export type ContactOwnerSet = z.input<typeof contactOwnerSetSchema>;
