import {
  businessMillisBetween,
  RULE_DRY_RUN_DAYS,
  type RuleDefinition,
  type RuleDryRun,
  type RuleEventSummary,
  type RuleTrigger,
} from "@zapdesk/core";
import { and, asc, eq, gt, inArray, isNotNull, lte, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "../../db/client.js";
import { contacts, messages, queues, ruleEvents, tickets } from "../../db/schema.js";
import { firstFailing, loadFacts, type RuleFacts } from "./conditions.js";

/** Events a dry run looks at, at most. */
export const DRY_RUN_EVENT_LIMIT = 2000;
const HOUR_MS = 3_600_000;

interface PastEvent {
  kind: RuleTrigger;
  ticketId: number;
  at: Date;
  message: { id: number; body: string; createdAt: Date } | null;
  tagId: number | null;
  previous: Record<string, unknown> | null;
}

/**
 * The trigger's events of the window, derived from what the database keeps: messages (sent,
 * received, and the silences between them for the no-reply triggers), tickets' creation, acceptance
 * and close (status and assignee changes), and the rules' own event queue for what leaves no other
 * trace (queue changes, tags added) while a rule of that kind was enabled.
 */
async function pastEvents(db: Db, rule: RuleDefinition, from: Date, to: Date): Promise<PastEvent[]> {
  const limit = DRY_RUN_EVENT_LIMIT + 1;
  const inWindow = (column: AnyPgColumn): SQL => and(gt(column, from), lte(column, to)) as SQL;
  const messageEvents = async (fromMe: boolean): Promise<PastEvent[]> =>
    (
      await db
        .select({ id: messages.id, ticketId: messages.ticketId, body: messages.body, createdAt: messages.createdAt })
        .from(messages)
        .where(and(inWindow(messages.createdAt), eq(messages.fromMe, fromMe), eq(messages.isNote, false)))
        .orderBy(asc(messages.createdAt), asc(messages.id))
        .limit(limit)
    ).map((m) => ({ kind: rule.trigger, ticketId: m.ticketId, at: m.createdAt, message: m, tagId: null, previous: null }));
  switch (rule.trigger) {
    case "messageReceived":
      return messageEvents(false);
    case "messageSent":
      return messageEvents(true);
    case "ticketCreated":
      return (
        await db.select({ id: tickets.id, at: tickets.createdAt }).from(tickets).where(inWindow(tickets.createdAt)).limit(limit)
      ).map((t) => ({ kind: rule.trigger, ticketId: t.id, at: t.at, message: null, tagId: null, previous: null }));
    case "statusChanged":
    case "assigneeChanged": {
      const accepted = await db
        .select({ id: tickets.id, at: tickets.acceptedAt })
        .from(tickets)
        .where(and(isNotNull(tickets.acceptedAt), inWindow(tickets.acceptedAt)))
        .limit(limit);
      const events: PastEvent[] = accepted.map((t) => ({
        kind: rule.trigger,
        ticketId: t.id,
        at: t.at as Date,
        message: null,
        tagId: null,
        previous: { status: "pending", userId: null },
      }));
      if (rule.trigger === "statusChanged") {
        const closed = await db
          .select({ id: tickets.id, at: tickets.closingAt })
          .from(tickets)
          .where(and(isNotNull(tickets.closingAt), inWindow(tickets.closingAt)))
          .limit(limit);
        for (const t of closed) {
          events.push({
            kind: rule.trigger,
            ticketId: t.id,
            at: t.at as Date,
            message: null,
            tagId: null,
            previous: { status: "open" },
          });
        }
      }
      return events;
    }
    case "queueChanged":
    case "tagAdded":
      return (
        await db
          .select()
          .from(ruleEvents)
          .where(and(eq(ruleEvents.kind, rule.trigger), inWindow(ruleEvents.createdAt)))
          .orderBy(asc(ruleEvents.id))
          .limit(limit)
      ).map((e) => ({
        kind: rule.trigger,
        ticketId: e.ticketId,
        at: e.createdAt,
        message: null,
        tagId: e.tagId,
        previous: e.previous,
      }));
    case "noReplyFromCustomer":
    case "noReplyFromUs":
      return silences(db, rule, from, to);
  }
}

/** Each message of the window (ours, or the customer's) followed by N business minutes without another. */
async function silences(db: Db, rule: RuleDefinition, from: Date, to: Date): Promise<PastEvent[]> {
  const minutes = rule.idleMinutes ?? 0;
  const fromMe = rule.trigger === "noReplyFromCustomer";
  const rows = await db
    .select({
      id: messages.id,
      ticketId: messages.ticketId,
      body: messages.body,
      fromMe: messages.fromMe,
      createdAt: messages.createdAt,
      schedule: queues.schedule,
    })
    .from(messages)
    .innerJoin(tickets, eq(tickets.id, messages.ticketId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .where(and(gt(messages.createdAt, from), lte(messages.createdAt, to), eq(messages.isNote, false)))
    .orderBy(asc(messages.ticketId), asc(messages.createdAt), asc(messages.id))
    .limit(DRY_RUN_EVENT_LIMIT * 5);
  const events: PastEvent[] = [];
  for (const [i, m] of rows.entries()) {
    const next = rows[i + 1]?.ticketId === m.ticketId ? rows[i + 1].createdAt : to;
    if (m.fromMe !== fromMe) continue;
    if (businessMillisBetween(m.schedule, m.createdAt, next) < minutes * 60_000) continue;
    events.push({
      kind: rule.trigger,
      ticketId: m.ticketId,
      at: new Date(m.createdAt.getTime() + minutes * 60_000),
      message: { id: m.id, body: m.body, createdAt: m.createdAt },
      tagId: null,
      previous: { idleMinutes: minutes },
    });
  }
  return events;
}

/**
 * Issue 23 §1, the dry run: the rule (saved or not) over the last 7 days of real events, ticket by
 * ticket, what it would have done. Conditions read the tickets, tags and contact fields as they are
 * now (the message texts and times as they were); its per-ticket hourly limit is applied. Reads
 * only: nothing is written, nothing is sent.
 */
export async function dryRun(db: Db, rule: RuleDefinition, now: Date): Promise<RuleDryRun> {
  const from = new Date(now.getTime() - RULE_DRY_RUN_DAYS * 86_400_000);
  const all = (await pastEvents(db, rule, from, now)).sort((a, b) => a.at.getTime() - b.at.getTime());
  const truncated = all.length > DRY_RUN_EVENT_LIMIT;
  const events = all.slice(0, DRY_RUN_EVENT_LIMIT);
  const ticketIds = [...new Set(events.map((e) => e.ticketId))];
  const ticketRows = ticketIds.length
    ? await db
        .select({
          id: tickets.id,
          status: tickets.status,
          queueId: tickets.queueId,
          userId: tickets.userId,
          whatsappId: tickets.whatsappId,
          contactId: tickets.contactId,
          contactName: contacts.name,
        })
        .from(tickets)
        .innerJoin(contacts, eq(contacts.id, tickets.contactId))
        .where(inArray(tickets.id, ticketIds))
    : [];
  const byId = new Map(ticketRows.map((t) => [t.id, t]));
  // One set of lazy loaders per ticket (provider, tags, contact fields), shared by its events.
  const base = new Map<number, RuleFacts>();
  const result = new Map<number, RuleDryRun["tickets"][number]>();
  const firedAt = new Map<number, number[]>();
  for (const event of events) {
    const ticket = byId.get(event.ticketId);
    if (!ticket) continue;
    let shared = base.get(ticket.id);
    if (!shared) {
      shared = loadFacts(db, { at: event.at, ticket, message: null });
      base.set(ticket.id, shared);
    }
    const own = loadFacts(db, { at: event.at, ticket, message: event.message });
    const facts: RuleFacts = { ...shared, at: event.at, text: own.text, isFirstMessage: own.isFirstMessage };
    if ((await firstFailing(rule.conditions, facts)) >= 0) continue;
    const recent = (firedAt.get(ticket.id) ?? []).filter((t) => t > event.at.getTime() - HOUR_MS);
    const limited = recent.length >= rule.maxPerHour;
    if (!limited) firedAt.set(ticket.id, [...recent, event.at.getTime()]);
    const summary: RuleEventSummary = {
      kind: event.kind,
      ticketId: ticket.id,
      messageId: event.message?.id ?? null,
      text: event.message ? event.message.body.slice(0, 200) : null,
      tagId: event.tagId,
      previous: event.previous,
      depth: 0,
      at: event.at.toISOString(),
    };
    const entry = result.get(ticket.id) ?? { ticketId: ticket.id, contactName: ticket.contactName, firings: [] };
    entry.firings.push({ event: summary, outcome: limited ? "rateLimited" : "wouldRun", actions: rule.actions });
    result.set(ticket.id, entry);
  }
  return {
    from: from.toISOString(),
    to: now.toISOString(),
    eventsScanned: events.length,
    truncated,
    tickets: [...result.values()],
  };
}
