import { type Action, type Actor, can, type ErrorDetail } from "@zapdesk/core";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { whatsappTemplates } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import { findClosingReason } from "../closing-reasons/closing-reasons.repo.js";
import { findWebhook } from "../outbound-webhooks/webhooks.repo.js";
import { findQueueById } from "../queues/queues.repo.js";
import { existingTagIds } from "../tags/tags.repo.js";
import { findUserById } from "../users/users.repo.js";

/** Why one action cannot be saved, or null when what it names exists (and the author may name it). */
async function problem(db: Db, author: Actor, action: Action): Promise<string | null> {
  switch (action.type) {
    case "setContactOwner":
      if (action.userId === null) return null;
      return (await findUserById(db, action.userId)) ? null : "No such user";
    case "assignAgent":
      return (await findUserById(db, action.userId)) ? null : "No such user";
    case "assignQueue":
      return (await findQueueById(db, action.queueId)) ? null : "No such queue";
    case "addTag":
    case "removeTag":
      return (await existingTagIds(db, [action.tagId])).has(action.tagId) ? null : "No such tag";
    case "sendTemplate": {
      const [row] = await db
        .select({ id: whatsappTemplates.id })
        .from(whatsappTemplates)
        .where(
          and(
            eq(whatsappTemplates.name, action.name),
            eq(whatsappTemplates.language, action.language),
            eq(whatsappTemplates.status, "APPROVED"),
          ),
        )
        .limit(1);
      return row ? null : "No approved template with this name and language";
    }
    case "resolve": {
      if (action.closingReasonId === undefined || action.closingReasonId === null) return null;
      const reason = await findClosingReason(db, action.closingReasonId);
      if (!reason) return "No such closing reason";
      if (reason.archived) return "This closing reason is archived";
      if (reason.asksValue !== (action.closingValue !== undefined && action.closingValue !== null)) {
        return reason.asksValue ? "This closing reason asks for a value" : "This closing reason takes no value";
      }
      return null;
    }
    case "callWebhook": {
      // Outbound webhooks are admin configuration: naming one in an action is theirs to decide.
      if (!can(author, "webhooks:manage")) return "Only those who manage webhooks may call one";
      const webhook = await findWebhook(db, action.webhookId);
      return webhook?.enabled ? null : "No such enabled webhook";
    }
    default:
      return null;
  }
}

/**
 * What a saved action list names must exist when it is saved (a queue, a user, a tag, a template,
 * a closing reason, an enabled webhook): ERR_VALIDATION with one detail per action in the wrong.
 * Each run checks again, through the services, for whoever runs it.
 */
export async function checkActionReferences(db: Db, author: Actor, actions: Action[]): Promise<void> {
  const details: ErrorDetail[] = [];
  for (const [index, action] of actions.entries()) {
    const message = await problem(db, author, action);
    if (message) details.push({ path: ["actions", index], message });
  }
  if (details.length) throw new AppError("ERR_VALIDATION", { details });
}
