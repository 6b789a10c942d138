import type { GraphClient } from "./graph-client.js";

/** A message template as GET /{waba-id}/message_templates lists it. */
export interface MetaTemplate {
  id?: string;
  name: string;
  language: string;
  status: string;
  category?: string;
  components?: Record<string, unknown>[];
}

interface TemplatePage {
  data?: MetaTemplate[];
  paging?: { cursors?: { before?: string; after?: string }; next?: string };
}

/** A runaway paging loop stops here (Meta allows 250 templates a business account by default). */
const MAX_PAGES = 50;

/**
 * Every approved template of a business account, page by page. The `after` cursor is sent to our
 * own Graph base rather than following `paging.next`, so the token only ever goes where it is
 * configured to go.
 */
export async function fetchApprovedTemplates(client: GraphClient, businessAccountId: string): Promise<MetaTemplate[]> {
  const all: MetaTemplate[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await client.get<TemplatePage>(`${businessAccountId}/message_templates`, {
      fields: "name,language,status,category,components",
      limit: 100,
      after,
    });
    all.push(...(Array.isArray(res.data) ? res.data : []));
    after = res.paging?.next ? res.paging.cursors?.after : undefined;
    if (!after) break;
  }
  return all.filter((t) => t && t.status === "APPROVED" && typeof t.name === "string" && typeof t.language === "string");
}
