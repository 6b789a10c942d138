import {
  type ListQuery,
  PAGE_SIZE,
  type QuickAnswer,
  type quickAnswerInputSchema,
  type quickAnswerUpdateSchema,
} from "@zapdesk/core";
import type { z } from "zod";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import type { Publisher } from "../../realtime/publisher.js";
import * as repo from "./quick-answers.repo.js";

const present = (row: repo.QuickAnswerRow): QuickAnswer => ({ id: row.id, shortcut: row.shortcut, message: row.message });

/** Quick answers are shared by the whole team; every signed-in user may maintain them. */
export function createQuickAnswerService(deps: { db: Db; events: Publisher }) {
  const { db, events } = deps;
  return {
    async list(query: ListQuery) {
      const limit = PAGE_SIZE.quickAnswers;
      const { rows, count } = await repo.listQuickAnswers(db, {
        search: query.searchParam,
        limit,
        offset: (query.pageNumber - 1) * limit,
      });
      return { quickAnswers: rows.map(present), count, hasMore: count > query.pageNumber * limit };
    },

    async get(id: number): Promise<QuickAnswer> {
      const row = await repo.findQuickAnswer(db, id);
      if (!row) throw new AppError("ERR_NO_QUICK_ANSWER_FOUND");
      return present(row);
    },

    async create(input: z.output<typeof quickAnswerInputSchema>): Promise<QuickAnswer> {
      const quickAnswer = present(await repo.insertQuickAnswer(db, input));
      events.publish("quickAnswer", { action: "create", quickAnswer });
      return quickAnswer;
    },

    async update(id: number, input: z.output<typeof quickAnswerUpdateSchema>): Promise<QuickAnswer> {
      const row = await repo.updateQuickAnswer(db, id, input);
      if (!row) throw new AppError("ERR_NO_QUICK_ANSWER_FOUND");
      const quickAnswer = present(row);
      events.publish("quickAnswer", { action: "update", quickAnswer });
      return quickAnswer;
    },

    async remove(id: number): Promise<void> {
      if (!(await repo.deleteQuickAnswer(db, id))) throw new AppError("ERR_NO_QUICK_ANSWER_FOUND");
      events.publish("quickAnswer", { action: "delete", quickAnswerId: id });
    },
  };
}

export type QuickAnswerService = ReturnType<typeof createQuickAnswerService>;
