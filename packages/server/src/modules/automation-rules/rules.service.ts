import type {
  Rule,
  RuleDryRun,
  RuleInput,
  RuleLog,
  RuleUpdate,
  ruleDefinitionSchema,
  ruleInputSchema,
  ruleLogQuerySchema,
} from "@zapdesk/core";
import type { z } from "zod";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import type { Clock } from "../../lib/clock.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import type { Publisher } from "../../realtime/publisher.js";
import { recordAudit } from "../audit/audit.js";
import { checkActionReferences } from "../automation/action-checks.js";
import type { AuthUser } from "../users/users.repo.js";
import { dryRun } from "./dry-run.js";
import * as repo from "./rules.repo.js";

function nameTaken(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError("ERR_RULE_NAME_EXISTS");
  throw error;
}

/** A no-reply trigger keeps its minutes; any other has none. */
function idleOf(trigger: string, minutes: number | null | undefined): number | null {
  return trigger === "noReplyFromCustomer" || trigger === "noReplyFromUs" ? (minutes ?? null) : null;
}

/**
 * Issue 23 §1: automation rules (admin, `rules:manage`, checked by the routes). A rule's actions run
 * as the admin who last saved it, through the services their own clicks go through. Saving checks
 * what the actions name, like a macro's. Every change is audited and announced to the admins.
 */
export function createRuleService(deps: { db: Db; heavy: Db; events: Publisher; clock: Clock }) {
  const { db, events } = deps;

  function announce(action: "create" | "update", row: repo.RuleRow): Rule {
    const rule = repo.presentRule(row);
    events.publish("automationRule", { action, rule });
    return rule;
  }

  return {
    async list(): Promise<{ rules: Rule[] }> {
      return { rules: (await repo.listRules(db)).map(repo.presentRule) };
    },

    async get(id: number): Promise<Rule> {
      const row = await repo.findRule(db, id);
      if (!row) throw new AppError("ERR_NO_RULE_FOUND");
      return repo.presentRule(row);
    },

    async create(actor: AuthUser, input: z.output<typeof ruleInputSchema>): Promise<Rule> {
      await checkActionReferences(db, actor, input.actions);
      const row = await db
        .transaction(async (tx) => {
          const row = await repo.insertRule(tx, {
            ...input,
            idleMinutes: idleOf(input.trigger, input.idleMinutes),
            runAsId: actor.id,
          });
          await recordAudit(tx, {
            action: "rule.created",
            targetType: "rule",
            targetId: row.id,
            details: { name: row.name, trigger: row.trigger, enabled: row.enabled, actions: row.actions.map((a) => a.type) },
          });
          return row;
        })
        .catch(nameTaken);
      return announce("create", row);
    },

    async update(actor: AuthUser, id: number, input: RuleUpdate): Promise<Rule> {
      const current = await repo.findRule(db, id);
      if (!current) throw new AppError("ERR_NO_RULE_FOUND");
      if (input.actions) await checkActionReferences(db, actor, input.actions);
      const trigger = input.trigger ?? current.trigger;
      const idleMinutes = idleOf(trigger, input.idleMinutes === undefined ? current.idleMinutes : input.idleMinutes);
      if ((trigger === "noReplyFromCustomer" || trigger === "noReplyFromUs") && !idleMinutes) {
        throw new AppError("ERR_VALIDATION", { details: [{ path: ["idleMinutes"], message: "Required" }] });
      }
      const row = await db
        .transaction(async (tx) => {
          // Whoever saves a rule answers for its actions: they run as them from now on.
          const row = await repo.updateRule(tx, id, { ...input, trigger, idleMinutes, runAsId: actor.id });
          if (!row) throw new AppError("ERR_NO_RULE_FOUND");
          await recordAudit(tx, {
            action: "rule.updated",
            targetType: "rule",
            targetId: id,
            details: {
              name: input.name,
              trigger: input.trigger,
              enabled: input.enabled,
              actions: input.actions?.map((a) => a.type),
            },
          });
          return row;
        })
        .catch(nameTaken);
      return announce("update", row);
    },

    async remove(id: number): Promise<void> {
      await db.transaction(async (tx) => {
        const current = await repo.findRule(tx, id);
        if (!current || !(await repo.deleteRule(tx, id))) throw new AppError("ERR_NO_RULE_FOUND");
        await recordAudit(tx, { action: "rule.deleted", targetType: "rule", targetId: id, details: { name: current.name } });
      });
      events.publish("automationRule", { action: "delete", ruleId: id });
    },

    async log(id: number, query: z.output<typeof ruleLogQuerySchema>): Promise<RuleLog> {
      if (!(await repo.findRule(db, id))) throw new AppError("ERR_NO_RULE_FOUND");
      const page = await repo.listRuns(db, id, query.pageNumber, query.outcome);
      const notMet = await repo.notMetOf(db, id);
      return { runs: page.rows.map(repo.presentRun), count: page.count, hasMore: page.hasMore, notMet };
    },

    /** What the definition would have done over the last 7 days (reads only). */
    dryRun(definition: z.output<typeof ruleDefinitionSchema>): Promise<RuleDryRun> {
      return dryRun(deps.heavy, definition, deps.clock.now());
    },
  };
}

export type RuleService = ReturnType<typeof createRuleService>;
export type { RuleInput };
