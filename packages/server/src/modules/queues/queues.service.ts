import { type Actor, can, type Queue, type QueueInput, type queueInputSchema, type queueUpdateSchema } from "@zapdesk/core";
import type { z } from "zod";
import type { Db } from "../../db/client.js";
import { AppError, fieldError } from "../../lib/app-error.js";
import { constraintName, isUniqueViolation } from "../../lib/pg-errors.js";
import type { Publisher } from "../../realtime/publisher.js";
import { recordAudit } from "../audit/audit.js";
import { presentSchedule } from "./business-hours.js";
import * as repo from "./queues.repo.js";

export function presentQueue(row: repo.QueueRow): Queue {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    greetingMessage: row.greetingMessage,
    schedule: presentSchedule(row.schedule),
    closingReason: row.closingReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What a queue is created from (a schedule is optional for internal callers such as the demo). */
type QueueCreate = Omit<z.output<typeof queueInputSchema>, "schedule"> & {
  schedule?: z.output<typeof queueInputSchema>["schedule"];
};

function assertManager(actor: Actor) {
  if (!can(actor, "queues:manage")) throw new AppError("ERR_NO_PERMISSION");
}

export function createQueueService(deps: { db: Db; events: Publisher }) {
  const { db, events } = deps;

  async function assertUnique(values: { name?: string; color?: string }, exceptId?: number) {
    if (values.name) {
      const clash = await repo.findQueueByName(db, values.name);
      if (clash && clash.id !== exceptId) throw fieldError("name", "This queue name is already in use");
    }
    if (values.color) {
      const clash = await repo.findQueueByColor(db, values.color);
      if (clash && clash.id !== exceptId) throw new AppError("ERR_QUEUE_COLOR_ALREADY_EXISTS");
    }
  }

  /** Concurrent saves can still race past the checks; the unique indexes decide. */
  function translateUnique(error: unknown): never {
    if (isUniqueViolation(error)) {
      if (constraintName(error) === "queues_color_key") throw new AppError("ERR_QUEUE_COLOR_ALREADY_EXISTS");
      throw fieldError("name", "This queue name is already in use");
    }
    throw error;
  }

  return {
    async list(): Promise<Queue[]> {
      return (await repo.listQueues(db)).map(presentQueue);
    },

    async get(id: number): Promise<Queue> {
      const row = await repo.findQueueById(db, id);
      if (!row) throw new AppError("ERR_NO_QUEUE_FOUND");
      return presentQueue(row);
    },

    async create(actor: Actor, input: QueueCreate): Promise<Queue> {
      assertManager(actor);
      await assertUnique(input);
      const row = await db
        .transaction(async (tx) => {
          const row = await repo.insertQueue(tx, input);
          await recordAudit(tx, { action: "queue.created", targetType: "queue", targetId: row!.id, details: { ...input } });
          return row;
        })
        .catch(translateUnique);
      const queue = presentQueue(row);
      events.publish("queue", { action: "create", queue });
      return queue;
    },

    async update(actor: Actor, id: number, input: z.output<typeof queueUpdateSchema>): Promise<Queue> {
      assertManager(actor);
      if (!(await repo.findQueueById(db, id))) throw new AppError("ERR_NO_QUEUE_FOUND");
      await assertUnique(input, id);
      const row = await db
        .transaction(async (tx) => {
          const row = await repo.updateQueue(tx, id, input);
          if (row) await recordAudit(tx, { action: "queue.updated", targetType: "queue", targetId: id, details: { ...input } });
          return row;
        })
        .catch(translateUnique);
      if (!row) throw new AppError("ERR_NO_QUEUE_FOUND");
      const queue = presentQueue(row);
      events.publish("queue", { action: "update", queue });
      return queue;
    },

    async remove(actor: Actor, id: number): Promise<void> {
      assertManager(actor);
      await db.transaction(async (tx) => {
        const existing = await repo.findQueueById(tx, id);
        if (!existing || !(await repo.deleteQueue(tx, id))) throw new AppError("ERR_NO_QUEUE_FOUND");
        await recordAudit(tx, { action: "queue.deleted", targetType: "queue", targetId: id, details: { name: existing.name } });
      });
      events.publish("queue", { action: "delete", queueId: id });
    },
  };
}

export type QueueService = ReturnType<typeof createQueueService>;
export type { QueueInput };
