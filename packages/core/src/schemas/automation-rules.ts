import { z } from "zod";
import { isTimeZone } from "../business-hours.js";
import { CONNECTION_PROVIDERS } from "../constants.js";
import { actionListSchema, actionResultSchema, actionSchema } from "./automation.js";
import { idParam, idSchema, MSG, pageNumberSchema, requiredText } from "./common.js";

/**
 * Issue 23 §1: automation rules — *when* (a trigger), *if* (conditions, all must hold), *then*
 * (the action list of automation.ts, the same one macros run). See docs/automation-rules.md.
 */
export const RULE_TRIGGERS = [
  "messageReceived",
  "messageSent",
  "ticketCreated",
  "statusChanged",
  "queueChanged",
  "assigneeChanged",
  "tagAdded",
  /** We wrote last and the customer has not answered for `idleMinutes` business minutes. */
  "noReplyFromCustomer",
  /** The customer wrote last and nobody answered for `idleMinutes` business minutes. */
  "noReplyFromUs",
] as const;
export type RuleTrigger = (typeof RULE_TRIGGERS)[number];
export const IDLE_TRIGGERS: readonly RuleTrigger[] = ["noReplyFromCustomer", "noReplyFromUs"];

/** The longest regular expression a condition may hold, and the longest text it is tried on. */
export const RULE_REGEX_MAX = 200;
export const RULE_TEXT_SCAN_MAX = 4096;
export const RULE_CONDITIONS_MAX = 20;

/**
 * A pattern that cannot backtrack catastrophically: no back-references or look-arounds, and no
 * quantified group that itself holds a quantifier or an alternation ("(a+)+", "(a|aa)*").
 * Returns why not, or null when it is safe (and compiles).
 */
export function unsafeRegexReason(pattern: string): string | null {
  if (pattern.length > RULE_REGEX_MAX) return MSG.tooLong;
  try {
    new RegExp(pattern, "iu");
  } catch {
    return "Invalid regular expression";
  }
  if (/\\[1-9k]|\(\?<?[=!]/.test(pattern)) return "Back-references and look-arounds are not allowed";
  // Walk the groups: a group holding a quantifier or `|`, itself followed by a quantifier, is refused.
  const stack: { risky: boolean }[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      i = end < 0 ? pattern.length : end;
      continue;
    }
    if (c === "(") stack.push({ risky: false });
    else if (c === ")") {
      const group = stack.pop();
      const next = pattern[i + 1];
      const quantified = next === "*" || next === "+" || next === "?" || next === "{";
      if (group?.risky && quantified) return "Nested repetition is not allowed";
      if (group?.risky && stack.length) stack[stack.length - 1].risky = true;
    } else if ((c === "*" || c === "+" || c === "{" || c === "|") && stack.length) {
      stack[stack.length - 1].risky = true;
    }
  }
  return null;
}

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, "Invalid time");
const timezone = z.string().refine(isTimeZone, "Invalid time zone");

export const ruleConditionSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("queue"), queueIds: z.array(idSchema).max(100), negate: z.boolean().default(false) }),
  z.strictObject({
    type: z.literal("connection"),
    whatsappIds: z.array(idSchema).min(1).max(100),
    negate: z.boolean().default(false),
  }),
  z.strictObject({ type: z.literal("connectionKind"), kinds: z.array(z.enum(CONNECTION_PROVIDERS)).min(1) }),
  z.strictObject({ type: z.literal("tag"), tagId: idSchema, has: z.boolean().default(true) }),
  z.strictObject({
    type: z.literal("contactField"),
    name: requiredText(1, 100),
    op: z.enum(["equals", "contains", "empty", "notEmpty"]),
    value: z.string().max(1000, MSG.tooLong).default(""),
  }),
  z.strictObject({
    type: z.literal("messageText"),
    op: z.enum(["contains", "matches"]),
    value: z.string().min(1, MSG.required).max(RULE_REGEX_MAX, MSG.tooLong),
  }),
  /** The event's message is the first of its ticket (nothing before it but notes). */
  z.strictObject({ type: z.literal("firstMessage"), value: z.boolean().default(true) }),
  /** "none": unassigned; "any": assigned to someone; or one of these agents. */
  z.strictObject({ type: z.literal("assignee"), value: z.union([z.enum(["none", "any"]), z.array(idSchema).min(1).max(100)]) }),
  z.strictObject({ type: z.literal("status"), statuses: z.array(z.enum(["pending", "open", "closed"])).min(1) }),
  /** Wall-clock time in `timezone`, `from` inclusive, `to` exclusive; from > to spans midnight. */
  z.strictObject({ type: z.literal("timeOfDay"), from: hhmm, to: hhmm, timezone }),
  /** 0 = Sunday … 6 = Saturday, in `timezone`. */
  z.strictObject({ type: z.literal("dayOfWeek"), days: z.array(z.number().int().min(0).max(6)).min(1).max(7), timezone }),
]);
export type RuleCondition = z.output<typeof ruleConditionSchema>;
export type RuleConditionInput = z.input<typeof ruleConditionSchema>;
export type RuleConditionType = RuleCondition["type"];

const conditionsSchema = z
  .array(ruleConditionSchema)
  .max(RULE_CONDITIONS_MAX)
  .superRefine((conditions, ctx) => {
    for (const [index, condition] of conditions.entries()) {
      if (condition.type !== "messageText" || condition.op !== "matches") continue;
      const reason = unsafeRegexReason(condition.value);
      if (reason) ctx.addIssue({ code: "custom", path: [index, "value"], message: reason });
    }
  });

/** The default of how many times one rule may fire on one ticket in an hour. */
export const RULE_MAX_PER_HOUR_DEFAULT = 3;

const ruleFields = {
  name: requiredText(1, 80),
  trigger: z.enum(RULE_TRIGGERS),
  /** For the no-reply triggers: business minutes (the ticket's queue's hours) without an answer. */
  idleMinutes: z
    .number()
    .int()
    .min(1)
    .max(60 * 24 * 7)
    .nullable()
    .default(null),
  conditions: conditionsSchema.default([]),
  actions: actionListSchema,
  /** At most this many firings per ticket in an hour; more are logged as skipped. */
  maxPerHour: z.number().int().min(1).max(100).default(RULE_MAX_PER_HOUR_DEFAULT),
};

function idleCheck(value: { trigger?: RuleTrigger; idleMinutes?: number | null }, ctx: z.RefinementCtx) {
  if (value.trigger === undefined) return;
  const idle = IDLE_TRIGGERS.includes(value.trigger);
  if (idle && !value.idleMinutes) ctx.addIssue({ code: "custom", path: ["idleMinutes"], message: MSG.required });
}

export const ruleDefinitionSchema = z.strictObject(ruleFields).superRefine(idleCheck);
export type RuleDefinition = z.output<typeof ruleDefinitionSchema>;
export type RuleDefinitionInput = z.input<typeof ruleDefinitionSchema>;

export const ruleInputSchema = z.strictObject({ ...ruleFields, enabled: z.boolean().default(false) }).superRefine(idleCheck);
export type RuleInput = z.input<typeof ruleInputSchema>;

export const ruleUpdateSchema = z
  .strictObject({
    name: ruleFields.name.optional(),
    trigger: ruleFields.trigger.optional(),
    idleMinutes: z
      .number()
      .int()
      .min(1)
      .max(60 * 24 * 7)
      .nullable()
      .optional(),
    conditions: conditionsSchema.optional(),
    actions: actionListSchema.optional(),
    maxPerHour: z.number().int().min(1).max(100).optional(),
    enabled: z.boolean().optional(),
  })
  .superRefine(idleCheck);
export type RuleUpdate = z.output<typeof ruleUpdateSchema>;

export const ruleSchema = z.object({
  id: z.number(),
  name: z.string(),
  enabled: z.boolean(),
  trigger: z.enum(RULE_TRIGGERS),
  idleMinutes: z.number().nullable(),
  conditions: z.array(ruleConditionSchema),
  actions: z.array(actionSchema),
  maxPerHour: z.number(),
  /** The admin the actions run as (who last saved the rule). */
  runAsId: z.number().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Rule = z.infer<typeof ruleSchema>;
export const ruleListSchema = z.object({ rules: z.array(ruleSchema) });
export const ruleEnableSchema = z.strictObject({ enabled: z.boolean() });

/** What happened to one event for one rule. */
export const RULE_OUTCOMES = ["done", "condition", "rateLimited", "refused"] as const;
export type RuleOutcome = (typeof RULE_OUTCOMES)[number];

/** The event a rule reacted to, as the log and the dry run show it. */
export const ruleEventSummarySchema = z.object({
  kind: z.enum(RULE_TRIGGERS),
  ticketId: z.number(),
  messageId: z.number().nullable(),
  /** The first characters of the message, when the event is one. */
  text: z.string().nullable(),
  tagId: z.number().nullable(),
  previous: z.record(z.string(), z.unknown()).nullable(),
  depth: z.number(),
  at: z.iso.datetime(),
});
export type RuleEventSummary = z.infer<typeof ruleEventSummarySchema>;

export const ruleRunSchema = z.object({
  id: z.number(),
  ruleId: z.number(),
  ticketId: z.number().nullable(),
  outcome: z.enum(RULE_OUTCOMES),
  event: ruleEventSummarySchema,
  /** The condition that did not hold (its index), for `condition`. */
  failedCondition: z.number().nullable(),
  results: z.array(actionResultSchema),
  /** The refusal's error code and message (and the action it stopped at), for `refused`. */
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type RuleRun = z.infer<typeof ruleRunSchema>;

export const ruleLogQuerySchema = z.strictObject({
  pageNumber: pageNumberSchema,
  outcome: z.enum(RULE_OUTCOMES).optional(),
});
/**
 * Events whose conditions the rule did not meet: not firings, so counted rather than listed (per
 * condition that stopped it; `since`: the oldest counted hour, null when none). Older logs may still
 * hold such events as runs with the `condition` outcome.
 */
export const ruleNotMetSchema = z.object({
  count: z.number(),
  since: z.iso.datetime().nullable(),
  byCondition: z.array(z.object({ index: z.number(), count: z.number(), lastAt: z.iso.datetime() })),
});
export type RuleNotMet = z.infer<typeof ruleNotMetSchema>;
export const ruleLogSchema = z.object({
  runs: z.array(ruleRunSchema),
  count: z.number(),
  hasMore: z.boolean(),
  notMet: ruleNotMetSchema,
});
export type RuleLog = z.infer<typeof ruleLogSchema>;
export const ruleLogParamsSchema = z.strictObject({ id: idParam });

/** POST /automation-rules/dry-run: a definition (saved or not) over the last 7 days. */
export const ruleDryRunInputSchema = ruleDefinitionSchema;
export const RULE_DRY_RUN_DAYS = 7;
export const ruleDryRunSchema = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  /** Events of the rule's trigger looked at (at most `limit`). */
  eventsScanned: z.number(),
  truncated: z.boolean(),
  tickets: z.array(
    z.object({
      ticketId: z.number(),
      contactName: z.string(),
      firings: z.array(
        z.object({
          event: ruleEventSummarySchema,
          outcome: z.enum(["wouldRun", "rateLimited"]),
          actions: z.array(actionSchema),
        }),
      ),
    }),
  ),
});
export type RuleDryRun = z.infer<typeof ruleDryRunSchema>;
