import { CHANNEL_CAPABILITIES, type ConnectionProvider, type Template } from "@zapdesk/core";
import { and, asc, eq, max } from "drizzle-orm";
import { type CloudDeps, graphClientFor, loadCloudAccount } from "../../channels/cloud/cloud-account.js";
import { fetchApprovedTemplates } from "../../channels/cloud/cloud-templates.js";
import { GraphError, GraphNoAnswer, GraphUnreachable } from "../../channels/cloud/graph-client.js";
import type { Db } from "../../db/client.js";
import { whatsapps, whatsappTemplates } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import { withoutNul } from "../../lib/pg-safe.js";
import { createChannelStore } from "../connections/channel-store.js";
import { templateTexts, variablesOf } from "./template-render.js";

export type TemplateRow = typeof whatsappTemplates.$inferSelect;

export function presentTemplate(row: TemplateRow): Template {
  const components = (Array.isArray(row.components) ? row.components : []) as Record<string, unknown>[];
  const { headerText, bodyText } = templateTexts(components);
  return {
    id: row.id,
    name: row.name,
    language: row.language,
    category: row.category,
    status: row.status,
    components,
    bodyVariables: variablesOf(bodyText).length,
    headerVariables: variablesOf(headerText).length,
    bodyText,
    syncedAt: row.syncedAt.toISOString(),
  };
}

/** Approved templates of Cloud API connections, synced from their business accounts. */
export function createTemplateService(deps: { db: Db; cloud: CloudDeps }) {
  const { db } = deps;
  const store = createChannelStore(db);

  /** The connection, which must exist and be of a kind that sends templates. */
  async function templateConnection(whatsappId: number) {
    const [row] = await db.select({ provider: whatsapps.provider }).from(whatsapps).where(eq(whatsapps.id, whatsappId));
    if (!row) throw new AppError("ERR_NO_WAPP_FOUND");
    if (!CHANNEL_CAPABILITIES[row.provider as ConnectionProvider]?.templates) throw new AppError("ERR_WAPP_NOT_SUPPORTED");
  }

  async function list(whatsappId: number) {
    await templateConnection(whatsappId);
    const rows = await db
      .select()
      .from(whatsappTemplates)
      .where(eq(whatsappTemplates.whatsappId, whatsappId))
      .orderBy(asc(whatsappTemplates.name), asc(whatsappTemplates.language));
    const [last] = await db
      .select({ at: max(whatsappTemplates.syncedAt) })
      .from(whatsappTemplates)
      .where(eq(whatsappTemplates.whatsappId, whatsappId));
    return { templates: rows.map(presentTemplate), syncedAt: last?.at ? new Date(last.at).toISOString() : null };
  }

  return {
    list,

    /** Replace the stored templates with the business account's approved ones, in one transaction. */
    async sync(whatsappId: number) {
      await templateConnection(whatsappId);
      const account = await loadCloudAccount(store, whatsappId, deps.cloud.openSecret);
      if (!account?.accessToken || !account.businessAccountId) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
      const client = graphClientFor(deps.cloud, account);
      let fetched: Awaited<ReturnType<typeof fetchApprovedTemplates>>;
      try {
        fetched = await fetchApprovedTemplates(client, account.businessAccountId);
      } catch (error) {
        if (error instanceof GraphError) throw new AppError("ERR_CLOUD_API", { message: `Meta (${error.code}): ${error.title}` });
        if (error instanceof GraphUnreachable || error instanceof GraphNoAnswer) {
          throw new AppError("ERR_CLOUD_API", { message: "The Graph API did not answer." });
        }
        throw error;
      }
      const unique = new Map(fetched.map((t) => [`${t.name}\u0000${t.language}`, t]));
      const now = new Date();
      await db.transaction(async (tx) => {
        await tx.delete(whatsappTemplates).where(eq(whatsappTemplates.whatsappId, whatsappId));
        if (unique.size === 0) return;
        await tx.insert(whatsappTemplates).values(
          [...unique.values()].map((t) =>
            withoutNul({
              whatsappId,
              name: t.name.slice(0, 512),
              language: t.language.slice(0, 20),
              category: String(t.category ?? "").slice(0, 50),
              status: t.status,
              components: Array.isArray(t.components) ? t.components : [],
              syncedAt: now,
            }),
          ),
        );
      });
      return list(whatsappId);
    },

    /** An approved template of the connection, by name and language. */
    async find(whatsappId: number, name: string, language: string): Promise<TemplateRow> {
      await templateConnection(whatsappId);
      const [row] = await db
        .select()
        .from(whatsappTemplates)
        .where(
          and(
            eq(whatsappTemplates.whatsappId, whatsappId),
            eq(whatsappTemplates.name, name),
            eq(whatsappTemplates.language, language),
          ),
        );
      if (row?.status !== "APPROVED") throw new AppError("ERR_NO_TEMPLATE_FOUND");
      return row;
    },
  };
}

export type TemplateService = ReturnType<typeof createTemplateService>;
