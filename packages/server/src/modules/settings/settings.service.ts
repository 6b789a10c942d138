import { type Actor, can, PUBLIC_SETTING_KEYS, SETTING_VALUE_SCHEMAS, type Setting, type SettingKey } from "@zapdesk/core";
import type { Db } from "../../db/client.js";
import { newApiToken } from "../../db/seed.js";
import { AppError } from "../../lib/app-error.js";
import type { Publisher } from "../../realtime/publisher.js";
import { recordAudit } from "../audit/audit.js";
import { assertAllowedTarget } from "../outbound-webhooks/target-guard.js";
import { hasTwoFactor } from "../two-factor/two-factor.repo.js";
import * as repo from "./settings.repo.js";

const present = (row: repo.SettingRow): Setting => ({ key: row.key, value: row.value });

export function createSettingService(deps: { db: Db; events: Publisher; onChange?: (key: string) => void }) {
  const { db, events } = deps;
  return {
    async list(actor: Actor): Promise<Setting[]> {
      if (!can(actor, "settings:manage")) throw new AppError("ERR_NO_PERMISSION");
      return (await repo.listSettings(db)).map(present);
    },

    /** The few settings the sign-up screen and embedded pages need, for anyone. */
    async listPublic(): Promise<Setting[]> {
      return (await repo.listSettings(db, PUBLIC_SETTING_KEYS)).map(present);
    },

    async get(key: SettingKey): Promise<string | undefined> {
      return repo.getSettingValue(db, key);
    },

    async update(actor: Actor, key: string, value: string): Promise<Setting> {
      if (!can(actor, "settings:manage")) throw new AppError("ERR_NO_PERMISSION");
      const current = await repo.getSettingValue(db, key);
      if (current === undefined) throw new AppError("ERR_NO_SETTING_FOUND");
      const schema = SETTING_VALUE_SCHEMAS[key as SettingKey];
      if (!schema) {
        throw new AppError("ERR_VALIDATION", { details: [{ path: ["value"], message: "This setting is read-only" }] });
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success) {
        throw new AppError("ERR_VALIDATION", {
          details: parsed.error.issues.map((issue) => ({ path: ["value", ...issue.path.map(String)], message: issue.message })),
        });
      }
      // Issue 22: the protocol webhook's address is checked as the outbound webhooks' are.
      if (key === "protocolWebhookUrl" && parsed.data !== "") {
        await assertAllowedTarget(parsed.data, (await repo.getSettingValue(db, "protocolWebhookAllowPrivate")) === "enabled");
      }
      // Issue 22 §5: whoever requires a second factor has one (else their own next refresh would end them).
      if (key === "twoFactorRequired" && parsed.data !== "off" && !(await hasTwoFactor(db, actor.id))) {
        throw new AppError("ERR_TOTP_ENROL_FIRST");
      }
      const row = await db.transaction(async (tx) => {
        const row = await repo.updateSetting(tx, key, parsed.data);
        if (!row) throw new AppError("ERR_NO_SETTING_FOUND");
        // Issue 22 §4: the old and new values, but never a secret's.
        const secret = /token|secret|password|key/i.test(key);
        await recordAudit(tx, {
          action: "setting.changed",
          targetType: "setting",
          targetId: key,
          details: secret ? { changed: true } : { from: current, to: parsed.data },
        });
        return row;
      });
      return changed(row);
    },

    /** A new API token; the old one stops working at once (the token endpoint reads it on every call). */
    async rotateApiToken(actor: Actor): Promise<Setting> {
      if (!can(actor, "settings:manage")) throw new AppError("ERR_NO_PERMISSION");
      const row = await db.transaction(async (tx) => {
        const row = await repo.updateSetting(tx, "userApiToken", newApiToken());
        if (!row) throw new AppError("ERR_NO_SETTING_FOUND");
        await recordAudit(tx, { action: "apiToken.rotated", targetType: "setting", targetId: "userApiToken" });
        return row;
      });
      return changed(row);
    },
  };

  function changed(row: repo.SettingRow): Setting {
    const setting = present(row);
    deps.onChange?.(row.key);
    if (row.key === "showChoosingQueue") events.choosingVisibilityChanged(row.value === "enabled");
    events.publish("settings", { action: "update", setting });
    return setting;
  }
}

export type SettingService = ReturnType<typeof createSettingService>;
