import { eq, inArray } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { ChannelSession } from "../../channels/channel.js";
import type { Db } from "../../db/client.js";
import { contacts } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import { findConnection, findDefaultConnection } from "../connections/connections.repo.js";
import { isPhoneAddress, twinOf } from "./contact-addresses.js";
import type { ContactIdentity } from "./contact-identity.js";

/** What WhatsApp said of a typed number: its own id for it, or nothing (no live connection, or no answer). */
export interface Looked {
  number: string;
  /** WhatsApp answered: `number` is the id it uses (QR: its lookup; Cloud and simulator: the digits). */
  confirmed: boolean;
}

/**
 * A number an agent (or an integration) typed, as WhatsApp knows it (issue 18: Brazil's ninth
 * digit, Chatwoot #5840, Baileys #2124). Asked of the connection's own lookup (`checkNumber`: on
 * QR, Baileys' `onWhatsApp`) when contacts are created or edited and when a ticket is started.
 * With no live connection, or a lookup that fails, the typed number stands: the Cloud send
 * answer's `wa_id` corrects it later, and a reply from the other form finds this contact anyway.
 * A lookup that says the number has no WhatsApp refuses it (ERR_WAPP_INVALID_CONTACT).
 */
export function createNumberLookup(deps: {
  db: Db;
  /** The live session of a connection, undefined when it is not connected here. */
  session(whatsappId: number): ChannelSession | undefined;
  identity: () => ContactIdentity;
  logger: FastifyBaseLogger;
}) {
  const { db, logger } = deps;

  async function lookup(typed: string, whatsappId?: number): Promise<Looked> {
    if (!isPhoneAddress(typed)) return { number: typed, confirmed: false };
    const connection = whatsappId === undefined ? await findDefaultConnection(db) : await findConnection(db, whatsappId);
    const live = connection ? deps.session(connection.id) : undefined;
    if (!connection || !live) return { number: typed, confirmed: false };
    const id = connection.id;
    try {
      const number = await live.checkNumber(typed);
      // Only a QR connection asks WhatsApp (Baileys' onWhatsApp); the Cloud API has no lookup, its
      // send answer's wa_id corrects the number later, and the simulator only checks the digits.
      return { number, confirmed: connection.provider === "baileys" };
    } catch (error) {
      if (error instanceof AppError && error.code === "ERR_WAPP_INVALID_CONTACT") throw error;
      logger.warn({ err: error, whatsappId: id }, "WhatsApp's lookup of a number failed; the number is kept as typed");
      return { number: typed, confirmed: false };
    }
  }

  return {
    lookup,

    /**
     * The number to address a typed number's customer at, on the way to a contact: WhatsApp's own
     * id (a contact kept under the typed form moves to it), else, unconfirmed, the form an
     * existing contact already has (its ninth-digit twin) rather than a second contact.
     */
    async contactNumber(typed: string, whatsappId?: number): Promise<string> {
      const looked = await lookup(typed, whatsappId);
      if (looked.confirmed) {
        if (looked.number !== typed) {
          const [kept] = await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.number, typed));
          if (kept) await deps.identity().renumber(kept.id, looked.number);
        }
        return looked.number;
      }
      const twin = twinOf(typed);
      if (!twin) return typed;
      const rows = await db
        .select({ number: contacts.number })
        .from(contacts)
        .where(inArray(contacts.number, [typed, twin]));
      return rows.some((r) => r.number === typed) ? typed : (rows[0]?.number ?? typed);
    },

    /** A contact's number checked again when a ticket is started: it moves to WhatsApp's form when they differ. */
    async recheck(contactId: number, whatsappId: number): Promise<void> {
      const [contact] = await db.select().from(contacts).where(eq(contacts.id, contactId));
      if (!contact || contact.isGroup || !isPhoneAddress(contact.number)) return;
      // A number WhatsApp does not know still gets its ticket: the send will say why it failed.
      const looked = await lookup(contact.number, whatsappId).catch(() => undefined);
      if (!looked) return;
      if (looked.confirmed && looked.number !== contact.number) await deps.identity().renumber(contactId, looked.number);
    },
  };
}

export type NumberLookup = ReturnType<typeof createNumberLookup>;
