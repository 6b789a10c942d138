import { consentAnswerOf, matchesWord, optOutTransitions } from "@zapdesk/core";
import type { Db } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import { PLACEHOLDER_TYPE } from "../messages/inbound-placeholder.js";
import { enqueueOutbound } from "../messages/outbound.js";
import { personalise } from "../messages/queue-menu.js";
import type { TicketRow } from "../tickets/tickets.repo.js";
import {
  type ConsentConfigRow,
  type InboundConsentState,
  inboundState,
  insertRecords,
  type NewConsentRecord,
  scopeRecords,
} from "./consent.repo.js";

/** A customer's stored message, as the consent step reads it (both roads into the store). */
export interface ConsentEntry {
  ticket: TicketRow;
  contactId: number;
  /** How the consent message may address the customer ({{name}}). */
  name: string;
  messageId: number;
  wid: string;
  body: string;
  type: string;
  fromMe: boolean;
  isGroup: boolean;
  timestamp: Date;
}

export interface ConsentOutcome {
  /** The consent messages queued, by ticket id (announced with the customer's message). */
  prompts: Map<number, number>;
  /** Contacts whose records changed (told to clients after commit). */
  contactIds: number[];
}

/** The consent message a ticket gets: its queue's when that one is enabled, else its connection's. */
function configOf(ticket: TicketRow, configs: ConsentConfigRow[]): ConsentConfigRow | undefined {
  return (
    (ticket.queueId !== null ? configs.find((c) => c.queueId === ticket.queueId) : undefined) ??
    configs.find((c) => c.whatsappId !== null && c.whatsappId === ticket.whatsappId)
  );
}

const scopeOf = (config: ConsentConfigRow, whatsappId: number) => ({
  whatsappId,
  queueId: config.queueId,
});

/** The consent message as the customer reads it. */
export function consentText(config: Pick<ConsentConfigRow, "message" | "privacyUrl">, name: string): string {
  const withLink = config.message.replace(/\{\{\s*link\s*\}\}/gi, config.privacyUrl);
  const text = personalise(withLink, name);
  // A link not placed in the text goes on its own line at the end: the notice is always reachable.
  return config.privacyUrl && !text.includes(config.privacyUrl) ? `${text.trim()}\n${config.privacyUrl}` : text;
}

/**
 * Issue 22 §3, in the caller's transaction, after the customer's messages are stored (one message,
 * or a batch, in arrival order): opt-out words stop automatic sends, any later message lifts that;
 * an answer to a pending consent question is recorded; a conversation whose connection or queue
 * asks for consent, from a customer who has not answered there, gets the question once per ticket.
 * `prompt: false` records opt-outs and answers only (a rating's answer, which stays on its closed ticket).
 * `state`: the words, opt-outs and consent messages when the caller read them already (issue 24: the
 * batch reads them in its ticket update, `consentColumns`); read here otherwise.
 */
export async function applyConsent(
  tx: Db,
  clock: Clock,
  whatsappId: number,
  input: ConsentEntry[],
  options: { prompt?: boolean; state?: InboundConsentState } = {},
): Promise<ConsentOutcome> {
  const outcome: ConsentOutcome = { prompts: new Map(), contactIds: [] };
  const entries = input.filter((e) => !e.fromMe && !e.isGroup && e.type !== PLACEHOLDER_TYPE);
  if (entries.length === 0) return outcome;
  const records: NewConsentRecord[] = [];
  const changed = new Set<number>();
  const contactIds = [...new Set(entries.map((e) => e.contactId))];
  const record = (entry: ConsentEntry, kind: NewConsentRecord["kind"], extra: Partial<NewConsentRecord> = {}) => {
    records.push({
      contactId: entry.contactId,
      kind,
      whatsappId,
      ticketId: entry.ticket.id,
      messageId: entry.messageId,
      messageWid: entry.wid,
      text: entry.body.slice(0, 200),
      createdAt: entry.timestamp,
      ...extra,
    });
    changed.add(entry.contactId);
  };

  const queueIds = [...new Set(entries.flatMap((e) => (e.ticket.queueId === null ? [] : [e.ticket.queueId])))];
  const { words, optedOut: out, configs } = options.state ?? (await inboundState(tx, whatsappId, contactIds, queueIds));

  // Opt-out and opt-in, contact by contact in order.
  const stillOut = new Set<number>();
  for (const contactId of contactIds) {
    const mine = entries.filter((e) => e.contactId === contactId);
    for (const change of optOutTransitions(out.has(contactId), mine, words)) record(change.message, change.kind);
    if (matchesWord(mine[mine.length - 1].body, words)) stillOut.add(contactId);
  }

  // Consent: answers to a pending question, then the question where none was answered.
  if (configs.length > 0) {
    const history = await scopeRecords(tx, contactIds, configs);
    const onScope = (contactId: number, config: ConsentConfigRow) =>
      history.filter(
        (r) =>
          r.contactId === contactId &&
          (config.queueId !== null ? r.queueId === config.queueId : r.whatsappId === whatsappId && r.queueId === null),
      );
    for (const entry of entries) {
      const config = configOf(entry.ticket, configs);
      if (!config || matchesWord(entry.body, words)) continue;
      const past = onScope(entry.contactId, config);
      const last = past[past.length - 1];
      const answer = last?.kind === "asked" ? consentAnswerOf(entry.body, config) : undefined;
      if (answer) {
        record(entry, answer, scopeOf(config, whatsappId));
        history.push({ contactId: entry.contactId, kind: answer, ticketId: entry.ticket.id, ...scopeOf(config, whatsappId) });
        continue;
      }
      const answered = past.some((r) => r.kind === "accepted" || r.kind === "declined");
      const askedHere = past.some((r) => r.kind === "asked" && r.ticketId === entry.ticket.id);
      if (options.prompt === false || answered || askedHere || stillOut.has(entry.contactId)) continue;
      const question = await enqueueOutbound(tx, {
        ticket: entry.ticket,
        body: consentText(config, entry.name),
        automation: "system",
        at: clock.now(),
      });
      record(entry, "asked", {
        ...scopeOf(config, whatsappId),
        messageId: question.id,
        messageWid: null,
        text: null,
        createdAt: clock.now(),
      });
      history.push({ contactId: entry.contactId, kind: "asked", ticketId: entry.ticket.id, ...scopeOf(config, whatsappId) });
      outcome.prompts.set(entry.ticket.id, question.id);
    }
  }
  await insertRecords(tx, records);
  outcome.contactIds = [...changed];
  return outcome;
}
