import { timingSafeEqual } from "node:crypto";
import type { Message } from "@zapdesk/core";
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { contacts } from "../../db/schema.js";
import { bearerToken } from "../../http/auth.js";
import { AppError } from "../../lib/app-error.js";
import { type RateLimiter, rateLimitedError } from "../../lib/rate-limiter.js";
import { findDefaultConnection } from "../connections/connections.repo.js";
import { isOptedOut } from "../consent/consent.repo.js";
import type { NumberLookup } from "../contacts/whatsapp-number.js";
import { getSettingValue } from "../settings/settings.repo.js";
import * as ticketsRepo from "../tickets/tickets.repo.js";
import type { OutboundQueue } from "./outbound-queue.js";
import type { UploadedMedia } from "./uploads.js";

/** POST /api/messages/send: Whaticket-compatible sending for integrations, authorised by userApiToken only. */
export function createApiSend(deps: {
  db: Db;
  /** Issue 18: the typed number as WhatsApp knows it (ninth digit); as typed while the connection is down. */
  numbers: Pick<NumberLookup, "contactNumber">;
  outbound: OutboundQueue;
  present(messageId: number): Promise<Message>;
}) {
  const { db } = deps;
  return {
    /** `ip` is for the rate limit that wraps this (rateLimitApiSend). */
    async authorize(header: string | undefined, _ip?: string): Promise<void> {
      const given = bearerToken(header);
      if (!given) throw new AppError("ERR_SESSION_EXPIRED");
      const expected = (await getSettingValue(db, "userApiToken")) ?? "";
      const a = Buffer.from(given);
      const b = Buffer.from(expected);
      if (!expected || a.length !== b.length || !timingSafeEqual(a, b)) throw new AppError("ERR_NO_PERMISSION");
    },

    async send(input: { number: string; body: string }, medias: UploadedMedia[]) {
      const connection = await findDefaultConnection(db);
      if (!connection) throw new AppError("ERR_NO_DEF_WAPP_FOUND");
      // Offline, the message waits in the outbox for the connection (the number as typed, or its twin's contact).
      const number = await deps.numbers.contactNumber(input.number, connection.id);
      const outgoing = deps.outbound.begin();
      const { ticketId, ids } = await db.transaction(async (tx) => {
        const [contact] = await tx
          .insert(contacts)
          .values({ number, name: number })
          .onConflictDoUpdate({ target: contacts.number, set: { number: sql`excluded.number` } })
          .returning();
        // Issue 22 §3: a customer who opted out gets nothing automatic until they write again.
        if (await isOptedOut(tx, contact.id)) throw new AppError("ERR_CONTACT_OPTED_OUT");
        let ticket = await ticketsRepo.findActiveTicket(tx, contact.id, connection.id);
        ticket ??= await ticketsRepo.insertTicketIfNoneActive(tx, {
          contactId: contact.id,
          whatsappId: connection.id,
          status: "pending",
          isGroup: false,
        });
        if (!ticket) throw new AppError("ERR_CREATING_TICKET");
        const created: number[] = [];
        const add = (rows: { id: number }[]) => created.push(...rows.map((row) => row.id));
        // No agent typed it: held, like a bot's message, while the number may not open chats.
        if (medias.length === 0) add(await outgoing.enqueue(tx, { ticket, body: input.body, automatic: true }));
        for (const [index, media] of medias.entries()) {
          add(await outgoing.enqueue(tx, { ticket, body: index === 0 ? input.body : "", media, automatic: true }));
        }
        return { ticketId: ticket.id, ids: created };
      });
      await outgoing.afterCommit();
      return { message: await deps.present(ids[0]), ticketId };
    },
  };
}

export type ApiSend = ReturnType<typeof createApiSend>;

/** Requests per minute and address to the token endpoint, unless the config says otherwise. */
export const API_SEND_PER_MINUTE = 120;

/** The token endpoint is limited per address before the token is even compared. */
export function rateLimitApiSend(apiSend: ApiSend, limiter: RateLimiter): ApiSend {
  return {
    ...apiSend,
    async authorize(header, ip) {
      const { allowed, retryAfterMs } = await limiter.hit(ip ?? "unknown");
      if (!allowed) throw rateLimitedError(retryAfterMs);
      return apiSend.authorize(header);
    },
  };
}
