import {
  type Actor,
  type Contact,
  can,
  type contactInputSchema,
  type contactUpdateSchema,
  type ListQuery,
  PAGE_SIZE,
} from "@zapdesk/core";
import type { z } from "zod";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import type { Publisher } from "../../realtime/publisher.js";
import * as repo from "./contacts.repo.js";

export function presentContact(row: repo.ContactRow, extraInfo?: repo.ExtraInfoRow[]): Contact {
  return {
    id: row.id,
    name: row.name,
    number: row.number,
    email: row.email,
    profilePicUrl: row.profilePicUrl,
    isGroup: row.isGroup,
    ...(extraInfo ? { extraInfo: extraInfo.map(({ id, name, value }) => ({ id, name, value })) } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function duplicated(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError("ERR_DUPLICATED_CONTACT");
  throw error;
}

export function createContactService(deps: { db: Db; events: Publisher }) {
  const { db, events } = deps;

  async function load(id: number): Promise<Contact> {
    const row = await repo.findContactById(db, id);
    if (!row) throw new AppError("ERR_NO_CONTACT_FOUND");
    return presentContact(row, await repo.listExtraInfo(db, id));
  }

  return {
    async list(query: ListQuery) {
      const limit = PAGE_SIZE.contacts;
      const { rows, count } = await repo.listContacts(db, {
        search: query.searchParam,
        limit,
        offset: (query.pageNumber - 1) * limit,
      });
      return { contacts: rows.map((r) => presentContact(r)), count, hasMore: count > query.pageNumber * limit };
    },

    get: load,

    async create(input: z.output<typeof contactInputSchema>): Promise<Contact> {
      if (await repo.findContactByNumber(db, input.number)) throw new AppError("ERR_DUPLICATED_CONTACT");
      const id = await db
        .transaction(async (tx) => {
          const row = await repo.insertContact(tx, { name: input.name, number: input.number, email: input.email });
          if (input.extraInfo?.length) await repo.replaceExtraInfo(tx, row.id, input.extraInfo);
          return row.id;
        })
        .catch(duplicated);
      const contact = await load(id);
      events.publish("contact", { action: "create", contact });
      return contact;
    },

    async update(id: number, input: z.output<typeof contactUpdateSchema>): Promise<Contact> {
      if (!(await repo.findContactById(db, id))) throw new AppError("ERR_NO_CONTACT_FOUND");
      if (input.number) {
        const clash = await repo.findContactByNumber(db, input.number);
        if (clash && clash.id !== id) throw new AppError("ERR_DUPLICATED_CONTACT");
      }
      await db
        .transaction(async (tx) => {
          await repo.updateContact(tx, id, { name: input.name, number: input.number, email: input.email });
          if (input.extraInfo) await repo.replaceExtraInfo(tx, id, input.extraInfo);
        })
        .catch(duplicated);
      const contact = await load(id);
      events.publish("contact", { action: "update", contact });
      return contact;
    },

    async remove(actor: Actor, id: number): Promise<void> {
      if (!can(actor, "contacts-page:deleteContact")) throw new AppError("ERR_NO_PERMISSION");
      if (!(await repo.deleteContact(db, id))) throw new AppError("ERR_NO_CONTACT_FOUND");
      events.publish("contact", { action: "delete", contactId: id });
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
