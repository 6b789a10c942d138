import { ANONYMISED_CONTACT_NAME } from "@zapdesk/core";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { contacts } from "../../db/schema.js";
import { type PersonTraces, removePersonTraces, rowsOf } from "./person-traces.js";

type ContactRow = typeof contacts.$inferSelect;

export interface AnonymisedRows extends PersonTraces {
  /** Files of the finished scheduled messages that went (queued for removal by the caller). */
  mediaPaths: string[];
}

/**
 * Issue 22 §1: a retention policy's anonymisation, in the caller's transaction. Unlike an erasure
 * the contact row, its tickets and their ratings stay (reports, the count of conversations, the
 * CSAT averages); what says who the person was goes: name, number, e-mail, picture, LID, BSUID,
 * username, extra info, number history, tags, finished scheduled messages, and the traces an
 * erasure removes too (person-traces.ts). The number becomes `anonymised:<id>`, which no channel
 * ever sends: a customer who writes again is a new contact. The caller has checked that nothing
 * else refers to the person (no message left, no open ticket, no schedule or CSAT question waiting).
 */
export async function anonymiseContactRows(tx: Db, contact: ContactRow, ticketIds: number[]): Promise<AnonymisedRows> {
  const id = contact.id;
  const traces = await removePersonTraces(tx, contact, ticketIds);
  const schedules = await rowsOf<{ media_path: string | null }>(
    tx,
    sql`delete from scheduled_messages where (contact_id = ${id} or ticket_id = any(${sql.param(ticketIds)}::int[]))
          and status <> 'scheduled'
        returning media_path`,
  );
  await tx.execute(sql`delete from contact_extra_info where contact_id = ${id}`);
  await tx.execute(sql`delete from contact_changes where contact_id = ${id}`);
  await tx.execute(sql`delete from contact_tags where contact_id = ${id}`);
  await tx
    .update(contacts)
    .set({
      name: ANONYMISED_CONTACT_NAME,
      number: `anonymised:${id}`,
      email: "",
      profilePicUrl: "",
      lid: null,
      bsuid: null,
      username: null,
      anonymisedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(contacts.id, id));
  const mediaPaths = [...new Set(schedules.flatMap((s) => (s.media_path ? [s.media_path] : [])))];
  return { ...traces, mediaPaths };
}
