import { type Actor, can, type Tag, type tagInputSchema, type tagUpdateSchema } from "@zapdesk/core";
import type { z } from "zod";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import type { Publisher } from "../../realtime/publisher.js";
import * as repo from "./tags.repo.js";

function nameTaken(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError("ERR_TAG_NAME_EXISTS");
  throw error;
}

/**
 * Tags (issue 11): everyone signed in reads them; admins (`tags:manage`) write them. A deleted
 * tag leaves every ticket and contact (FK cascade); the `tag` event tells clients to drop it.
 */
export function createTagService(deps: { db: Db; events: Publisher }) {
  const { db, events } = deps;

  function mayManage(actor: Actor) {
    if (!can(actor, "tags:manage")) throw new AppError("ERR_NO_PERMISSION");
  }

  return {
    async list(): Promise<{ tags: Tag[] }> {
      return { tags: await repo.listTags(db) };
    },

    async create(actor: Actor, input: z.output<typeof tagInputSchema>): Promise<Tag> {
      mayManage(actor);
      const tag = await repo.insertTag(db, input).catch(nameTaken);
      events.publish("tag", { action: "create", tag });
      return tag;
    },

    async update(actor: Actor, id: number, input: z.output<typeof tagUpdateSchema>): Promise<Tag> {
      mayManage(actor);
      const tag = await repo.updateTag(db, id, input).catch(nameTaken);
      if (!tag) throw new AppError("ERR_NO_TAG_FOUND");
      events.publish("tag", { action: "update", tag });
      return tag;
    },

    async remove(actor: Actor, id: number): Promise<void> {
      mayManage(actor);
      if (!(await repo.deleteTag(db, id))) throw new AppError("ERR_NO_TAG_FOUND");
      events.publish("tag", { action: "delete", tagId: id });
    },
  };
}

export type TagService = ReturnType<typeof createTagService>;
