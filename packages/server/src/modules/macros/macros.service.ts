import { type Actor, can, type Macro, type MacroRunResult, type MacroUpdate, type macroInputSchema } from "@zapdesk/core";
import type { z } from "zod";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import type { Publisher } from "../../realtime/publisher.js";
import { recordAudit } from "../audit/audit.js";
import { checkActionReferences } from "../automation/action-checks.js";
import type { ActionRunner } from "../automation/actions.js";
import type { TicketService } from "../tickets/tickets.service.js";
import type { AuthUser } from "../users/users.repo.js";
import * as repo from "./macros.repo.js";

function nameTaken(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError("ERR_MACRO_NAME_EXISTS");
  throw error;
}

/**
 * Issue 23 §2: macros. Everyone writes, sees and runs their own personal macros and runs the shared
 * ones; `macros:manage` writes the shared ones. A run is the action runner's (automation/actions.ts):
 * every action as the runner, all or nothing.
 */
export function createMacroService(deps: { db: Db; events: Publisher; runner: ActionRunner; tickets: TicketService }) {
  const { db, events } = deps;

  /** The macro, when the actor may change it: their own, or a shared one with `macros:manage`. */
  async function editable(actor: Actor, id: number): Promise<repo.MacroRow> {
    const row = await repo.findVisibleMacro(db, id, actor.id);
    if (!row) throw new AppError("ERR_NO_MACRO_FOUND");
    if (row.ownerId === null && !can(actor, "macros:manage")) throw new AppError("ERR_NO_PERMISSION");
    return row;
  }

  function announce(macro: Macro) {
    events.publish("macro", { action: "update", macro });
  }

  return {
    async list(actor: Actor): Promise<{ macros: Macro[] }> {
      return { macros: (await repo.listMacros(db, actor.id)).map(repo.presentMacro) };
    },

    async create(actor: Actor, input: z.output<typeof macroInputSchema>): Promise<Macro> {
      if (input.shared && !can(actor, "macros:manage")) throw new AppError("ERR_NO_PERMISSION");
      await checkActionReferences(db, actor, input.actions);
      const row = await db
        .transaction(async (tx) => {
          const row = await repo.insertMacro(tx, {
            name: input.name,
            ownerId: input.shared ? null : actor.id,
            actions: input.actions,
          });
          await recordAudit(tx, {
            action: "macro.created",
            targetType: "macro",
            targetId: row.id,
            details: { name: input.name, shared: input.shared, actions: input.actions.map((a) => a.type) },
          });
          return row;
        })
        .catch(nameTaken);
      const macro = repo.presentMacro(row);
      events.publish("macro", { action: "create", macro });
      return macro;
    },

    async update(actor: Actor, id: number, input: MacroUpdate): Promise<Macro> {
      const current = await editable(actor, id);
      // Sharing (or taking back) a macro is managing shared ones.
      if (input.shared !== undefined && input.shared !== current.shared && !can(actor, "macros:manage")) {
        throw new AppError("ERR_NO_PERMISSION");
      }
      if (input.actions) await checkActionReferences(db, actor, input.actions);
      const ownerId = input.shared === undefined || input.shared === current.shared ? undefined : input.shared ? null : actor.id;
      const row = await db
        .transaction(async (tx) => {
          const row = await repo.updateMacro(tx, id, { name: input.name, actions: input.actions, ownerId });
          if (!row) throw new AppError("ERR_NO_MACRO_FOUND");
          await recordAudit(tx, {
            action: "macro.updated",
            targetType: "macro",
            targetId: id,
            details: { name: input.name, shared: input.shared, actions: input.actions?.map((a) => a.type) },
          });
          return row;
        })
        .catch(nameTaken);
      const macro = repo.presentMacro(row);
      // A macro that changed hands is gone for whoever no longer sees it.
      if (current.ownerId !== row.ownerId) events.publish("macro", { action: "delete", macroId: id, ownerId: current.ownerId });
      announce(macro);
      return macro;
    },

    async remove(actor: Actor, id: number): Promise<void> {
      const current = await editable(actor, id);
      await db.transaction(async (tx) => {
        if (!(await repo.deleteMacro(tx, id))) throw new AppError("ERR_NO_MACRO_FOUND");
        await recordAudit(tx, { action: "macro.deleted", targetType: "macro", targetId: id, details: { name: current.name } });
      });
      events.publish("macro", { action: "delete", macroId: id, ownerId: current.ownerId });
    },

    /** Run a macro the actor may see on a ticket: what each action did, or the first refusal with nothing applied. */
    async run(actor: AuthUser, ticketId: number, macroId: number): Promise<MacroRunResult> {
      const macro = await repo.findVisibleMacro(db, macroId, actor.id);
      if (!macro) throw new AppError("ERR_NO_MACRO_FOUND");
      const results = await deps.runner.run(actor, ticketId, macro.actions, {
        source: { kind: "macro", id: macro.id, name: macro.name, userId: actor.id },
        record: (tx, results) =>
          recordAudit(tx, {
            action: "macro.ran",
            targetType: "ticket",
            targetId: ticketId,
            details: { macroId, name: macro.name, results: results.map((r) => `${r.type}:${r.outcome}`) },
          }),
      });
      // The runner may have moved the ticket out of their reach (a transfer): then no ticket comes back.
      const ticket = (await deps.tickets.canOpen(actor, ticketId)) ? await deps.tickets.present(ticketId) : null;
      return { macroId, results, ticket };
    },
  };
}

export type MacroService = ReturnType<typeof createMacroService>;
