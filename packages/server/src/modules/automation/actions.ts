import { type Action, type ActionResult, type ConnectionProvider, can, type ErrorDetail } from "@zapdesk/core";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { whatsapps } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import type { Publisher } from "../../realtime/publisher.js";
import { setContactOwner } from "../contact-owner/contact-owner.js";
import { publishContact } from "../contact-owner/publish.js";
import { listExtraInfo } from "../contacts/contacts.repo.js";
import { windowOpen } from "../messages/messages.service.js";
import type { OutboundQueue } from "../messages/outbound-queue.js";
import { type CallSource, enqueueWebhookCall } from "../outbound-webhooks/calls.js";
import { existingTagIds, tagsOfTickets } from "../tags/tags.repo.js";
import type { TicketRow } from "../tickets/tickets.repo.js";
import type { AuthUser } from "../users/users.repo.js";
import { deferEffects } from "./deferred.js";
import { type ScopedServices, type ServiceParts, scopedServices } from "./scoped-services.js";

export interface ActionRunnerDeps {
  db: Db;
  events: Publisher;
  /** The one outbound queue (messages are queued in the list's transaction, sent after it commits). */
  outbound: OutboundQueue;
  parts: ServiceParts;
  /** Wake the outbound webhooks' delivery worker (after commit). */
  notifyWebhooks: () => void;
}

export interface RunOptions {
  /** What ran the list, for a webhook call's `source`. */
  source: CallSource;
  /** Written in the list's transaction once every action applied (the audit entry). */
  record?: (tx: Db, results: ActionResult[]) => Promise<void>;
}

type Done = Omit<ActionResult, "index" | "type">;
const unchanged: Done = { outcome: "unchanged" };
const done: Done = { outcome: "done" };

/** A refusal names the action it stopped at: `details[0].path` is `["actions", index]`. */
function refusal(error: unknown, index: number, action: Action): never {
  if (!(error instanceof AppError)) throw error;
  const details: ErrorDetail[] = [
    { path: ["actions", index], message: `${action.type}: ${error.message}` },
    ...(error.details ?? []).map((d) => ({ path: ["actions", index, ...d.path], message: d.message })),
  ];
  throw new AppError(error.code, { message: error.message, details });
}

/**
 * Set a contact's extra field (added when missing, matched by name whatever its case), through the
 * contact service's own rule: admins edit any contact, agents one whose ticket they may act on.
 * Whether it changed. Also the bots' variables out (issue 23 §4).
 */
export async function setContactField(
  tx: Db,
  services: ScopedServices,
  actor: AuthUser,
  contactId: number,
  input: { name: string; value: string },
): Promise<boolean> {
  const existing = await listExtraInfo(tx, contactId);
  const field = existing.find((f) => f.name.toLowerCase() === input.name.toLowerCase());
  if (field?.value === input.value) return false;
  const extraInfo: { id?: number; name: string; value: string }[] = existing.map(({ id, name, value }) => ({
    id,
    name,
    value: id === field?.id ? input.value : value,
  }));
  if (!field) extraInfo.push({ name: input.name, value: input.value });
  await services.contacts.update(actor, contactId, { extraInfo });
  return true;
}

/**
 * Issue 23 §1: a rule's message to a customer still waiting (a new customer's first message): sent as
 * the system's automatic messages are (the greeting, the out-of-hours notice), from the bot, without
 * accepting the ticket for anyone. An agent's send needs an open ticket; a rule answering a waiting
 * customer must not take the conversation from the queue. The Cloud API's 24-hour window applies.
 */
async function automaticReply(tx: Db, outbound: OutboundQueue, ticket: TicketRow, body: string): Promise<number[]> {
  if (ticket.whatsappId === null) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
  const [connection] = await tx
    .select({ provider: whatsapps.provider })
    .from(whatsapps)
    .where(eq(whatsapps.id, ticket.whatsappId));
  if (connection && !windowOpen(connection.provider as ConnectionProvider, ticket.lastInboundAt)) {
    throw new AppError("ERR_WAPP_WINDOW_CLOSED");
  }
  const outgoing = outbound.begin();
  const rows = await outgoing.enqueue(tx, { ticket, body, automation: "rule" });
  await outgoing.afterCommit();
  return rows.map((row) => row.id);
}

/**
 * Issue 23 §1–§2: runs a list of actions on a ticket for a user (a macro now, a rule later), each
 * through the service the user's own click goes through, so each is checked as theirs (access, the
 * ticket's transitions, admin-only moves, the queue's closing-reason rule). All in one transaction:
 * the first refusal rolls everything back. Realtime events, outgoing messages and webhook calls
 * leave only once it committed.
 */
export function createActionRunner(deps: ActionRunnerDeps) {
  const { db } = deps;

  async function apply(
    tx: Db,
    services: ScopedServices,
    outbound: OutboundQueue,
    actor: AuthUser,
    ticketId: number,
    action: Action,
    options: RunOptions,
  ): Promise<Done> {
    const { tickets } = services;
    const ticket = await tickets.accessible(actor, ticketId, tx);
    switch (action.type) {
      case "assignAgent": {
        if (ticket.status === "open" && ticket.userId === action.userId) return unchanged;
        // An open ticket is transferred; a waiting one accepted, a closed one reopened, for that agent.
        const change = ticket.status === "open" ? { userId: action.userId } : { status: "open" as const, userId: action.userId };
        await tickets.update(actor, ticketId, change);
        return done;
      }
      case "assignQueue":
        if (ticket.status === "pending" && ticket.queueId === action.queueId && ticket.userId === null) return unchanged;
        await tickets.update(actor, ticketId, { status: "pending", queueId: action.queueId });
        return done;
      case "addTag":
      case "removeTag": {
        if (!(await existingTagIds(tx, [action.tagId])).has(action.tagId)) throw new AppError("ERR_NO_TAG_FOUND");
        const current = ((await tagsOfTickets(tx, [ticketId])).get(ticketId) ?? []).map((tag) => tag.id);
        const has = current.includes(action.tagId);
        if (has === (action.type === "addTag")) return unchanged;
        const tagIds = has ? current.filter((id) => id !== action.tagId) : [...current, action.tagId];
        await tickets.update(actor, ticketId, { tagIds });
        return done;
      }
      case "sendMessage": {
        if (options.source.kind === "rule" && ticket.status === "pending") {
          return { ...done, messageIds: await automaticReply(tx, outbound, ticket, action.body) };
        }
        const messages = await services.messages.send(actor, ticketId, { body: action.body });
        return { ...done, messageIds: messages.map((m) => m.id) };
      }
      case "sendTemplate": {
        const { type: _, ...input } = action;
        const message = await services.sendTemplate(actor, ticketId, input);
        return { ...done, messageIds: [message.id] };
      }
      case "addNote": {
        const note = await services.notes.create(actor, ticketId, { body: action.body });
        return { ...done, messageIds: [note.id] };
      }
      case "resolve":
        await tickets.update(actor, ticketId, {
          status: "closed",
          closingReasonId: action.closingReasonId,
          closingValue: action.closingValue,
        });
        return done;
      case "returnToQueue":
        await tickets.update(actor, ticketId, { status: "pending" });
        return done;
      case "setContactField":
        return (await setContactField(tx, services, actor, ticket.contactId, action)) ? done : unchanged;
      case "callWebhook":
        return { ...done, deliveryId: await enqueueWebhookCall(tx, action.webhookId, ticketId, options.source) };
      case "setContactOwner": {
        // The contact-owner service's own rule (docs/contact-owner.md) for whoever runs the list.
        const anyone = can(actor, "contacts:setOwner");
        if (!anyone && action.userId !== null && action.userId !== actor.id) throw new AppError("ERR_CONTACT_OWNER_ADMIN_ONLY");
        const change = await setContactOwner(tx, ticket.contactId, action.userId, {
          source: options.source.kind === "rule" ? "rule" : "manual",
          onlyIfNone: action.onlyIfNone,
          check: (current) => {
            if (!anyone && current !== null && current !== actor.id) throw new AppError("ERR_CONTACT_OWNER_TAKEN");
          },
        });
        if (!change.changed) return unchanged;
        await publishContact(tx, services.events, ticket.contactId);
        return done;
      }
    }
  }

  /**
   * The list in a transaction of `on` (the database, or a caller's transaction: then a savepoint in
   * it, so a refusal rolls back the list alone). `after` publishes what it held, once `on` committed.
   */
  async function runOn(on: Db, actor: AuthUser, ticketId: number, actions: Action[], options: RunOptions) {
    const effects = deferEffects(deps.events, deps.outbound);
    let calls = 0;
    const results = await on.transaction(async (tx) => {
      const services = scopedServices(tx, deps.parts, effects);
      const results: ActionResult[] = [];
      for (const [index, action] of actions.entries()) {
        const result = await apply(tx, services, effects.outbound, actor, ticketId, action, options).catch((error: unknown) =>
          refusal(error, index, action),
        );
        if (result.deliveryId !== undefined) calls++;
        results.push({ index, type: action.type, ...result });
      }
      await options.record?.(tx, results);
      return results;
    });
    const after = async () => {
      await effects.flush();
      if (calls > 0) deps.notifyWebhooks();
    };
    return { results, after };
  }

  return {
    /** Every action in order, or the first refusal (an AppError naming it) with nothing applied. */
    async run(actor: AuthUser, ticketId: number, actions: Action[], options: RunOptions): Promise<ActionResult[]> {
      const { results, after } = await runOn(db, actor, ticketId, actions, options);
      await after();
      return results;
    },
    /**
     * The same inside the caller's transaction (a rule's firing, recorded with it): the caller runs
     * `after()` once its transaction committed, and drops it if it rolled back.
     */
    runIn: runOn,
  };
}

export type ActionRunner = ReturnType<typeof createActionRunner>;
