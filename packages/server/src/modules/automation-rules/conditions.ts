import { localTimeOf, minutesOf, RULE_TEXT_SCAN_MAX, type RuleCondition } from "@zapdesk/core";
import { and, asc, eq, inArray, lt, or } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { contactExtraInfo, messages, ticketTags, whatsapps } from "../../db/schema.js";

/** What the conditions of a rule look at, for one event (loaded lazily: a condition asks, once). */
export interface RuleFacts {
  at: Date;
  ticket: {
    id: number;
    status: string;
    queueId: number | null;
    userId: number | null;
    whatsappId: number | null;
    contactId: number;
  };
  /** The event's message text (null: the event is not a message). */
  text: string | null;
  provider(): Promise<string | null>;
  tagIds(): Promise<number[]>;
  contactFields(): Promise<{ name: string; value: string }[]>;
  /** The event's message is the first of its ticket (false when the event is not a message). */
  isFirstMessage(): Promise<boolean>;
}

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => {
    value ??= load();
    return value;
  };
}

/** The facts of a ticket's event from the database (the ticket as it is now). */
export function loadFacts(
  db: Db,
  input: { at: Date; ticket: RuleFacts["ticket"]; message: { id: number; body: string; createdAt: Date } | null },
): RuleFacts {
  const { ticket, message } = input;
  return {
    at: input.at,
    ticket,
    text: message ? message.body : null,
    provider: once(async () => {
      if (ticket.whatsappId === null) return null;
      const [row] = await db.select({ provider: whatsapps.provider }).from(whatsapps).where(eq(whatsapps.id, ticket.whatsappId));
      return row?.provider ?? null;
    }),
    tagIds: once(async () =>
      (await db.select({ tagId: ticketTags.tagId }).from(ticketTags).where(eq(ticketTags.ticketId, ticket.id))).map(
        (r) => r.tagId,
      ),
    ),
    contactFields: once(() =>
      db
        .select({ name: contactExtraInfo.name, value: contactExtraInfo.value })
        .from(contactExtraInfo)
        .where(eq(contactExtraInfo.contactId, ticket.contactId))
        .orderBy(asc(contactExtraInfo.id)),
    ),
    isFirstMessage: once(async () => {
      if (!message) return false;
      const earlier = await db
        .select({ id: messages.id })
        .from(messages)
        .where(
          and(
            eq(messages.ticketId, ticket.id),
            eq(messages.isNote, false),
            or(
              lt(messages.createdAt, message.createdAt),
              and(eq(messages.createdAt, message.createdAt), lt(messages.id, message.id)),
            ),
          ),
        )
        .limit(1);
      return earlier.length === 0;
    }),
  };
}

/** Lower case, accents off: "Ação" contains "acao". */
export function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/**
 * Folded texts, remembered: one event's text is asked by every rule in turn, and a condition's value
 * by every event (the worker evaluates 20 rules on each inbound message).
 */
const foldedCache = new Map<string, string>();
function folded(text: string): string {
  let value = foldedCache.get(text);
  if (value === undefined) {
    if (foldedCache.size > 2000) foldedCache.clear();
    value = fold(text);
    foldedCache.set(text, value);
  }
  return value;
}

const compiled = new Map<string, RegExp>();
/** The condition's pattern (checked safe when saved: automation-rules.ts unsafeRegexReason), compiled once. */
function regexOf(pattern: string): RegExp {
  let regex = compiled.get(pattern);
  if (!regex) {
    if (compiled.size > 500) compiled.clear();
    regex = new RegExp(pattern, "iu");
    compiled.set(pattern, regex);
  }
  return regex;
}

/** The event's text as the text conditions read it (folded once per event, whatever the rules). */
const foldedTexts = new WeakMap<RuleFacts, string>();
function foldedTextOf(facts: RuleFacts, text: string): string {
  let value = foldedTexts.get(facts);
  if (value === undefined) {
    value = foldText(text);
    foldedTexts.set(facts, value);
  }
  return value;
}

/** A message-text condition on a text (`foldedText`: the text as `fold` gives it, asked only by "contains"). */
export function messageTextHolds(
  condition: Extract<RuleCondition, { type: "messageText" }>,
  text: string,
  foldedText: () => string = () => foldText(text),
): boolean {
  if (condition.op === "contains") return foldedText().includes(folded(condition.value));
  return regexOf(condition.value).test(text.slice(0, RULE_TEXT_SCAN_MAX));
}

/** A message's text as the text conditions read it: its first `RULE_TEXT_SCAN_MAX` characters, folded. */
export function foldText(text: string): string {
  return fold(text.slice(0, RULE_TEXT_SCAN_MAX));
}

/** What the ticket conditions read of a ticket (`ticketConditionHolds`). */
export type TicketState = Pick<RuleFacts["ticket"], "status" | "queueId" | "userId" | "whatsappId"> & {
  /** The connection's kind (undefined: not known here, the condition on it is left undecided). */
  provider?: string | null;
};

/**
 * A condition on the ticket's status, queue, assignee, connection or the connection's kind, decided
 * by those fields alone (undefined: the condition reads something else). The worker asks it of the
 * ticket it claimed; the inbound path of a ticket it has just written (rule-quiet.ts).
 */
export function ticketConditionHolds(condition: RuleCondition, ticket: TicketState): boolean | undefined {
  switch (condition.type) {
    case "queue":
      return (ticket.queueId !== null && condition.queueIds.includes(ticket.queueId)) !== condition.negate;
    case "connection":
      return (ticket.whatsappId !== null && condition.whatsappIds.includes(ticket.whatsappId)) !== condition.negate;
    case "assignee":
      if (condition.value === "none") return ticket.userId === null;
      if (condition.value === "any") return ticket.userId !== null;
      return ticket.userId !== null && condition.value.includes(ticket.userId);
    case "status":
      return (condition.statuses as string[]).includes(ticket.status);
    case "connectionKind":
      if (ticket.provider === undefined) return undefined;
      return ticket.provider !== null && (condition.kinds as string[]).includes(ticket.provider);
    default:
      return undefined;
  }
}

/** A condition decided by the event and its ticket alone, at once (undefined: it reads the database). */
function holdsAtOnce(condition: RuleCondition, facts: RuleFacts): boolean | undefined {
  switch (condition.type) {
    case "queue":
    case "connection":
    case "assignee":
    case "status":
      return ticketConditionHolds(condition, facts.ticket);
    case "messageText":
      return facts.text !== null && messageTextHolds(condition, facts.text, () => foldedTextOf(facts, facts.text as string));
    case "timeOfDay":
    case "dayOfWeek":
      return timeConditionHolds(condition, facts.at);
    default:
      return undefined;
  }
}

/**
 * A condition on the time of day or the day of the week at `at`, the event's time (undefined: the
 * condition reads something else). The worker asks it of the event's queued time; the inbound path
 * of its transaction's time, which the event is queued with (rule-quiet.ts).
 */
export function timeConditionHolds(condition: RuleCondition, at: Date): boolean | undefined {
  switch (condition.type) {
    case "timeOfDay": {
      const now = localTimeOf(at, condition.timezone).minutes;
      const from = minutesOf(condition.from);
      const to = minutesOf(condition.to);
      return from <= to ? from <= now && now < to : now >= from || now < to;
    }
    case "dayOfWeek":
      return condition.days.includes(localTimeOf(at, condition.timezone).weekday);
    default:
      return undefined;
  }
}

/** A condition that reads the database (through the facts' lazy loads, once per event). */
async function holdsLoaded(condition: RuleCondition, facts: RuleFacts): Promise<boolean> {
  switch (condition.type) {
    case "connectionKind":
      return ticketConditionHolds(condition, { ...facts.ticket, provider: await facts.provider() }) === true;
    case "tag":
      return (await facts.tagIds()).includes(condition.tagId) === condition.has;
    case "contactField": {
      const name = condition.name.toLowerCase();
      const value = (await facts.contactFields()).find((f) => f.name.toLowerCase() === name)?.value.trim() ?? "";
      if (condition.op === "empty") return value === "";
      if (condition.op === "notEmpty") return value !== "";
      if (condition.op === "equals") return fold(value) === fold(condition.value.trim());
      return fold(value).includes(fold(condition.value));
    }
    case "firstMessage":
      return (await facts.isFirstMessage()) === condition.value;
    default:
      return holdsAtOnce(condition, facts) === true;
  }
}

/**
 * The index of the first condition that does not hold, or -1 when all do (none: always). Decided at
 * once (no promise) until a condition needs the database: 20 rules on every message stay cheap.
 */
export function firstFailing(conditions: RuleCondition[], facts: RuleFacts): number | Promise<number> {
  for (let index = 0; index < conditions.length; index++) {
    const now = holdsAtOnce(conditions[index], facts);
    if (now === false) return index;
    if (now === undefined) return firstFailingFrom(conditions, facts, index);
  }
  return -1;
}

async function firstFailingFrom(conditions: RuleCondition[], facts: RuleFacts, from: number): Promise<number> {
  for (let index = from; index < conditions.length; index++) {
    const now = holdsAtOnce(conditions[index], facts);
    if (!(now ?? (await holdsLoaded(conditions[index], facts)))) return index;
  }
  return -1;
}

/** Tag ids of many tickets at once (the dry run). */
export async function tagIdsOf(db: Db, ticketIds: number[]): Promise<Map<number, number[]>> {
  const map = new Map<number, number[]>();
  if (!ticketIds.length) return map;
  const rows = await db.select().from(ticketTags).where(inArray(ticketTags.ticketId, ticketIds));
  for (const row of rows) map.set(row.ticketId, [...(map.get(row.ticketId) ?? []), row.tagId]);
  return map;
}
