import type { Message, templateSendSchema } from "@zapdesk/core";
import type { z } from "zod";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import { renderTemplate, sendComponents, templateTexts, variablesOf } from "../templates/template-render.js";
import type { TemplateService } from "../templates/templates.service.js";
import type { TicketService } from "../tickets/tickets.service.js";
import type { AuthUser } from "../users/users.repo.js";
import type { MessageService } from "./messages.service.js";
import type { OutboundQueue } from "./outbound-queue.js";

/**
 * POST /messages/:ticketId/template: an approved template with its variables filled. Access is
 * checked as for any send; unlike free-form text it is allowed once the 24-hour window is closed.
 * The rendered text is stored as the body (the history shows what the customer got), and the
 * outbox sends the template itself.
 */
export function createTemplateSend(deps: {
  db: Db;
  tickets: TicketService;
  messages: MessageService;
  templates: TemplateService;
  outbound: OutboundQueue;
}) {
  const { db, tickets, messages, templates } = deps;

  return async function sendTemplate(
    actor: AuthUser,
    ticketId: number,
    input: z.output<typeof templateSendSchema>,
  ): Promise<Message> {
    const ticket = await tickets.accessible(actor, ticketId);
    if (ticket.status !== "open") {
      throw new AppError("ERR_TICKET_NOT_OPEN");
    }
    if (ticket.whatsappId === null) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    const template = await templates.find(ticket.whatsappId, input.name, input.language);
    const components = (Array.isArray(template.components) ? template.components : []) as Record<string, unknown>[];
    const { headerText, bodyText } = templateTexts(components);
    const expected = { bodyParams: variablesOf(bodyText).length, headerParams: variablesOf(headerText).length };
    const details = (["bodyParams", "headerParams"] as const)
      .filter((key) => input[key].length !== expected[key])
      .map((key) => ({ path: [key], message: `This template takes ${expected[key]} value(s)` }));
    if (details.length) throw new AppError("ERR_VALIDATION", { details });

    const outgoing = deps.outbound.begin();
    const [row] = await db.transaction((tx) =>
      outgoing.enqueue(tx, {
        ticket,
        body: renderTemplate(components, input.bodyParams, input.headerParams),
        userId: actor.id,
        template: {
          name: template.name,
          language: template.language,
          components: sendComponents(components, input.bodyParams, input.headerParams),
        },
      }),
    );
    await outgoing.afterCommit();
    return messages.present(row.id);
  };
}

export type TemplateSend = ReturnType<typeof createTemplateSend>;
