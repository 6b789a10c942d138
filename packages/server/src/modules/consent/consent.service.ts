import {
  type Actor,
  type ConsentConfig,
  type ConsentConfigUpdate,
  type ConsentSettings,
  type ContactConsent,
  can,
  type consentConfigInputSchema,
} from "@zapdesk/core";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../../db/client.js";
import { consentConfigs, contacts } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import { isUniqueViolation, pgErrorCode } from "../../lib/pg-errors.js";
import type { Publisher } from "../../realtime/publisher.js";
import { recordAudit } from "../audit/audit.js";
import * as repo from "./consent.repo.js";

function translate(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError("ERR_CONSENT_CONFIG_EXISTS");
  // The connection or queue named does not exist (foreign key), or both or neither were named (check).
  if (pgErrorCode(error) === "23503" || pgErrorCode(error) === "23514") throw new AppError("ERR_CONSENT_SCOPE");
  throw error;
}

/**
 * Issue 22 §3: the consent messages (per connection or queue) and the install-wide opt-out words
 * are admins' (`consent:manage`); a contact's consent records are read by everyone who sees
 * contacts (every signed-in user), as the contact itself is.
 */
export function createConsentService(deps: { db: Db; events: Publisher }) {
  const { db, events } = deps;

  function mayManage(actor: Actor) {
    if (!can(actor, "consent:manage")) throw new AppError("ERR_NO_PERMISSION");
  }

  async function changed(tx: Db, details: Record<string, unknown>) {
    await recordAudit(tx, { action: "consent.settingsChanged", targetType: "consent", details });
  }

  async function settings(actor: Actor): Promise<ConsentSettings> {
    mayManage(actor);
    const [optOutWords, configs] = await Promise.all([repo.optOutWords(db), repo.listConfigs(db)]);
    return { optOutWords, configs: configs.map(repo.presentConfig) };
  }

  return {
    settings,

    async setOptOutWords(actor: Actor, words: string[]): Promise<ConsentSettings> {
      mayManage(actor);
      await db.transaction(async (tx) => {
        await repo.saveOptOutWords(tx, words);
        await changed(tx, { optOutWords: words });
      });
      events.publish("consentSettings", { action: "update" });
      return settings(actor);
    },

    async create(actor: Actor, input: z.output<typeof consentConfigInputSchema>): Promise<ConsentConfig> {
      mayManage(actor);
      if ((input.whatsappId === null) === (input.queueId === null)) throw new AppError("ERR_CONSENT_SCOPE");
      const row = await db
        .transaction(async (tx) => {
          const [row] = await tx.insert(consentConfigs).values(input).returning();
          await changed(tx, { created: row.id, whatsappId: input.whatsappId, queueId: input.queueId, enabled: input.enabled });
          return row;
        })
        .catch(translate);
      events.publish("consentSettings", { action: "update" });
      return repo.presentConfig(row);
    },

    async update(actor: Actor, id: number, input: ConsentConfigUpdate): Promise<ConsentConfig> {
      mayManage(actor);
      const row = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(consentConfigs)
          .set({ ...input, updatedAt: new Date() })
          .where(eq(consentConfigs.id, id))
          .returning();
        if (!row) throw new AppError("ERR_NO_CONSENT_CONFIG_FOUND");
        await changed(tx, { updated: id, ...input });
        return row;
      });
      events.publish("consentSettings", { action: "update" });
      return repo.presentConfig(row);
    },

    async remove(actor: Actor, id: number): Promise<void> {
      mayManage(actor);
      await db.transaction(async (tx) => {
        const [row] = await tx.delete(consentConfigs).where(eq(consentConfigs.id, id)).returning({ id: consentConfigs.id });
        if (!row) throw new AppError("ERR_NO_CONSENT_CONFIG_FOUND");
        await changed(tx, { deleted: id });
      });
      events.publish("consentSettings", { action: "update" });
    },

    /** A contact's consent records, newest first, and whether automatic messages reach them now. */
    async ofContact(contactId: number): Promise<ContactConsent> {
      const [contact] = await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.id, contactId));
      if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
      const [records, since] = await Promise.all([repo.recordsOf(db, contactId), repo.isOptedOut(db, contactId)]);
      return { contactId, optedOutSince: since ? since.toISOString() : null, records };
    },
  };
}

export type ConsentService = ReturnType<typeof createConsentService>;
