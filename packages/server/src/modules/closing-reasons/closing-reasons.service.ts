import { type Actor, type ClosingReason, type ClosingReasonUpdate, can, type closingReasonInputSchema } from "@zapdesk/core";
import type { z } from "zod";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import { isUniqueViolation, pgErrorCode } from "../../lib/pg-errors.js";
import type { Publisher } from "../../realtime/publisher.js";
import { recordAudit } from "../audit/audit.js";
import * as repo from "./closing-reasons.repo.js";

function translate(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError("ERR_CLOSING_REASON_NAME_EXISTS");
  // A close committed with the reason between the check and the delete: the foreign key refuses.
  if (pgErrorCode(error) === "23503") throw new AppError("ERR_CLOSING_REASON_IN_USE");
  throw error;
}

/**
 * Issue 23 §6: the list of closing reasons. Everyone signed in reads it (to close tickets);
 * admins (`closing-reasons:manage`) write it. A reason on tickets is archived, never deleted.
 */
export function createClosingReasonService(deps: { db: Db; events: Publisher }) {
  const { db, events } = deps;

  function mayManage(actor: Actor) {
    if (!can(actor, "closing-reasons:manage")) throw new AppError("ERR_NO_PERMISSION");
  }

  return {
    async list(): Promise<{ closingReasons: ClosingReason[] }> {
      return { closingReasons: (await repo.listClosingReasons(db)).map(repo.presentClosingReason) };
    },

    async create(actor: Actor, input: z.output<typeof closingReasonInputSchema>): Promise<ClosingReason> {
      mayManage(actor);
      const row = await db
        .transaction(async (tx) => {
          const row = await repo.insertClosingReason(tx, input);
          await recordAudit(tx, {
            action: "closingReason.created",
            targetType: "closingReason",
            targetId: row.id,
            details: input,
          });
          return row;
        })
        .catch(translate);
      const closingReason = repo.presentClosingReason(row);
      events.publish("closingReason", { action: "create", closingReason });
      return closingReason;
    },

    async update(actor: Actor, id: number, input: ClosingReasonUpdate): Promise<ClosingReason> {
      mayManage(actor);
      const row = await db
        .transaction(async (tx) => {
          const row = await repo.updateClosingReason(tx, id, input);
          if (!row) throw new AppError("ERR_NO_CLOSING_REASON_FOUND");
          await recordAudit(tx, { action: "closingReason.updated", targetType: "closingReason", targetId: id, details: input });
          return row;
        })
        .catch(translate);
      const closingReason = repo.presentClosingReason(row);
      events.publish("closingReason", { action: "update", closingReason });
      return closingReason;
    },

    /** Refused with ERR_CLOSING_REASON_IN_USE while any ticket carries it (archive it instead). */
    async remove(actor: Actor, id: number): Promise<void> {
      mayManage(actor);
      await db
        .transaction(async (tx) => {
          const existing = await repo.findClosingReason(tx, id);
          if (!existing) throw new AppError("ERR_NO_CLOSING_REASON_FOUND");
          if (await repo.closingReasonInUse(tx, id)) throw new AppError("ERR_CLOSING_REASON_IN_USE");
          await repo.deleteClosingReason(tx, id);
          await recordAudit(tx, {
            action: "closingReason.deleted",
            targetType: "closingReason",
            targetId: id,
            details: { name: existing.name },
          });
        })
        .catch(translate);
      events.publish("closingReason", { action: "delete", closingReasonId: id });
    },
  };
}

export type ClosingReasonService = ReturnType<typeof createClosingReasonService>;
