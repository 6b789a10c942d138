import { ACK_FAILED, OUTBOX_NOTICES } from "@zapdesk/core";
import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { MessageUpdate } from "../../channels/channel.js";
import type { Db } from "../../db/client.js";
import { contacts, type StoredReaction } from "../../db/schema.js";
import { withoutNul } from "../../lib/pg-safe.js";
import type { ContactIdentity } from "../contacts/contact-identity.js";
import type * as repo from "./messages.repo.js";

/** Failures older than delivery are not believed: a message the customer received did not fail. */
const DELIVERED = 2;

type Changes = Partial<repo.MessageRow>;

/**
 * Acks only move forward. A refusal (-1) applies to a message not yet delivered and keeps its
 * reason; a later delivery or read clears it, while a late "sent" does not undo it. Any real status
 * settles a message whose send was never answered (its "outcome unknown" notice goes).
 */
export function ackChanges(message: Pick<repo.MessageRow, "ack" | "fromMe" | "errorCode">, update: MessageUpdate): Changes {
  const ack = update.ack;
  if (ack === undefined) return {};
  if (ack === ACK_FAILED) {
    if (!message.fromMe || message.ack === ACK_FAILED || message.ack >= DELIVERED) return {};
    return {
      ack: ACK_FAILED,
      errorCode: update.error?.code ?? "unknown",
      errorTitle: update.error?.title ?? "",
    };
  }
  if (message.ack === ACK_FAILED) return ack >= DELIVERED ? { ack, errorCode: null, errorTitle: null } : {};
  if (ack <= message.ack) return {};
  return message.errorCode === OUTBOX_NOTICES.outcomeUnknown ? { ack, errorCode: null, errorTitle: null } : { ack };
}

/** The reactions after one participant reacted (or withdrew with an empty emoji): one per participant. */
export function applyReaction(
  current: StoredReaction[],
  reaction: NonNullable<MessageUpdate["reaction"]>,
  by: string,
  name: string,
) {
  const others = current.filter((r) => r.by !== by);
  return reaction.emoji ? [...others, { by, emoji: reaction.emoji, fromMe: reaction.fromMe, name }] : others;
}

export function createUpdateApplier(deps: { db: Db; identity: ContactIdentity; logger: FastifyBaseLogger }) {
  const { db, identity, logger } = deps;

  /** Whether an edit or revoke comes from the message's own author (or from us, for our messages). */
  async function fromAuthor(executor: Db, message: repo.MessageRow, update: MessageUpdate): Promise<boolean> {
    if (update.fromMe !== undefined && update.fromMe !== message.fromMe) return false;
    if (message.fromMe || update.author === undefined) return true;
    if (message.contactId === null) return false;
    const [author] = await executor
      .select({ number: contacts.number, lid: contacts.lid })
      .from(contacts)
      .where(eq(contacts.id, message.contactId));
    if (!author) return false;
    const claimed = await identity.resolve(executor, update.author);
    return claimed === author.number || update.author === author.number || (author.lid !== null && update.author === author.lid);
  }

  /** The changes an update makes to a stored message, or nothing (read through `executor`, the caller's transaction). */
  return async function changesFor(message: repo.MessageRow, input: MessageUpdate, executor: Db = db): Promise<Changes> {
    const update = withoutNul(input);
    const changes: Changes = ackChanges(message, update);
    if (update.editedBody !== undefined || update.revoked) {
      if (!(await fromAuthor(executor, message, update))) {
        logger.warn(
          { wid: message.wid, author: update.author },
          "ignored an edit or revoke by someone who did not write the message",
        );
      } else {
        if (update.editedBody !== undefined && update.editedBody !== message.body && !message.isDeleted) {
          changes.body = update.editedBody;
          changes.isEdited = true;
        }
        if (update.revoked && !message.isDeleted) changes.isDeleted = true;
      }
    }
    if (update.reaction) {
      const by = update.reaction.fromMe ? "me" : await identity.resolve(executor, update.reaction.by);
      let name = update.reaction.name ?? "";
      if (!update.reaction.fromMe && !name) {
        const [contact] = await executor.select({ name: contacts.name }).from(contacts).where(eq(contacts.number, by));
        name = contact?.name ?? by;
      }
      const reactions = applyReaction(message.reactions, update.reaction, by, name);
      if (JSON.stringify(reactions) !== JSON.stringify(message.reactions)) changes.reactions = reactions;
    }
    return changes;
  };
}
