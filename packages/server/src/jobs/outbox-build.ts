import type { ConnectionRestriction } from "@zapdesk/core";
import { eq } from "drizzle-orm";
import type { OutboundMessage } from "../channels/channel.js";
import type { Db } from "../db/client.js";
import { contacts, messages, tickets, whatsapps } from "../db/schema.js";
import { type MediaStorage, readStored } from "../media/storage.js";
import { outboundIntent } from "../modules/messages/outbound.js";

/**
 * A message that cannot be built or sent is tried this many times, 2 s, 4 s, 8 s, 16 s and 32 s
 * apart (about a minute in all), then failed with ack -1 and a reason: the agent sends it again
 * with the chat's retry button. Meanwhile the later messages of the same chat wait, to keep order.
 */
export const MAX_ATTEMPTS = 6;

/** Why the outbox gave up on a message (the `error` of a failed message, next to WhatsApp's own codes). */
export const OUTBOX_FAILURES = {
  MEDIA_MISSING: "The attached file is missing from the media storage",
  SEND_FAILED: `Not sent after ${MAX_ATTEMPTS} attempts`,
} as const;

/** A message that cannot be built (its media file is gone or unreadable). */
export class BuildFailure extends Error {
  constructor(
    readonly code: keyof typeof OUTBOX_FAILURES,
    detail: string,
  ) {
    super(`${code}: ${detail}`);
  }
}

/** A queued message with what deciding and building its send needs: its chat and its connection. */
export async function loadRow(db: Db, messageId: number) {
  const [row] = await db
    .select({
      message: messages,
      number: contacts.number,
      contactId: tickets.contactId,
      isGroup: tickets.isGroup,
      pacing: { minGapMs: whatsapps.sendMinGapMs, jitterMs: whatsapps.sendJitterMs },
      restriction: whatsapps.restriction,
    })
    .from(messages)
    .innerJoin(tickets, eq(tickets.id, messages.ticketId))
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(whatsapps, eq(whatsapps.id, messages.whatsappId))
    .where(eq(messages.id, messageId));
  if (!row) return undefined;
  return {
    ...row,
    pacing: row.pacing ?? { minGapMs: 0, jitterMs: 0 },
    restriction: (row.restriction ?? null) as ConnectionRestriction | null,
  };
}

export type OutboxRow = NonNullable<Awaited<ReturnType<typeof loadRow>>>;

function readMedia(storage: Pick<MediaStorage, "open">, path: string): Promise<Buffer> {
  return readStored(storage, path).catch((error) => {
    throw new BuildFailure("MEDIA_MISSING", String((error as Error)?.message ?? error));
  });
}

/** What the channel is given: the text, the file read from storage, the quoted message, the template. */
export async function buildOutbound(db: Db, storage: Pick<MediaStorage, "open">, row: OutboxRow) {
  const { message } = row;
  const intent = outboundIntent(message.raw);
  const outbound: OutboundMessage = { id: message.wid ?? undefined, to: row.number, isGroup: row.isGroup, body: message.body };
  if (intent.template) outbound.template = intent.template;
  if (message.mediaPath) {
    outbound.media = {
      data: await readMedia(storage, message.mediaPath),
      mimetype: message.mediaMime ?? "application/octet-stream",
      filename: message.mediaName ?? "file",
      asVoice: intent.asVoice === true,
    };
  }
  if (message.quotedMsgId) {
    const [quoted] = await db.select().from(messages).where(eq(messages.id, message.quotedMsgId));
    if (quoted?.wid)
      outbound.quoted = { wid: quoted.wid, fromMe: quoted.fromMe, body: quoted.body, raw: quoted.raw ?? undefined };
  }
  return { message, outbound, pacing: row.pacing };
}

export type Built = Awaited<ReturnType<typeof buildOutbound>>;
