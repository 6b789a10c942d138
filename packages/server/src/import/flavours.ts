import type { Source } from "./source.js";

export const FLAVOURS = ["community", "saas", "ticketz", "multiflow", "press"] as const;
export type Flavour = (typeof FLAVOURS)[number];

export const FLAVOUR_NAMES: Record<Flavour, string> = {
  community: "Whaticket Community",
  saas: "Whaticket SaaS (baseline)",
  ticketz: "Ticketz",
  multiflow: "Multiflow",
  press: "Press Ticket",
};

/** Multi-company flavours (Companies, companyId on every row). */
export const MULTI_COMPANY: ReadonlySet<Flavour> = new Set(["saas", "ticketz", "multiflow"]);

export class UnsupportedSourceError extends Error {}

const COMMUNITY_LAST = "20220223095932-add-whatsapp-to-user";

/** The migration names (without `.js`) that tell each flavour apart (migration-sources §4.0). */
const TELLS = {
  companies: "20210109192514-create-companies-table",
  communityQuickAnswers: "20210818102605-create-quickAnswers",
  saas: ["20230603212335-create-QueueIntegrations", "20231220192536-add-unique-constraint-to-tickets-table"],
  lidMaps: "20250612092900-create-whatsapp-lid-maps",
  ticketz: ["20240620080700-create-baileysKeys", "20250513082600-create-counters"],
  multiflow: [
    "20230901101300-create-CompaniesSettings",
    "20250115000000-add-lid-to-contacts",
    "20230711080001-create-Index-Message-wid",
  ],
  press: ["20250627000000-create-activity-logs", "20250925001000-create-message-reactions", "20251023233453-create-poll-votes"],
  izing: ["20201220234957-create-table-tenant", "20210207131524-create-table-fastReply"],
} as const;

export interface Detection {
  flavour?: Flavour;
  /** What was found, for the report and for a refusal. */
  found: string;
  migrations: number;
  last?: string;
}

/** Read SequelizeMeta and name the flavour; undefined flavour when nothing known matches. */
export async function detectFlavour(source: Source): Promise<Detection> {
  const tables = await source.columns();
  if (!tables.has("SequelizeMeta")) {
    return { found: "no SequelizeMeta table: this is not a Sequelize (Whaticket-family) database", migrations: 0 };
  }
  const names = (await source.query<{ name: string }>(`select "name" from "SequelizeMeta"`))
    .map((r) => r.name.replace(/\.(js|ts)$/, ""))
    .sort();
  const has = (name: string) => names.includes(name);
  const last = names.at(-1);
  const base = { migrations: names.length, last };
  const summary = `${names.length} migrations, the last ${last ?? "(none)"}`;
  if (TELLS.izing.some(has)) {
    return { ...base, found: `an Izing/Whazing schema (tenants, FastReply; ${summary}), which this importer does not read` };
  }
  if (TELLS.press.some(has)) return { ...base, flavour: "press", found: `Press Ticket (${summary})` };
  if (TELLS.multiflow.some(has)) return { ...base, flavour: "multiflow", found: `Multiflow (${summary})` };
  if (TELLS.ticketz.some(has)) return { ...base, flavour: "ticketz", found: `Ticketz (${summary})` };
  if (has(TELLS.companies)) {
    if (has(TELLS.lidMaps))
      return { ...base, found: `a SaaS-derived schema with LID maps that matches no known flavour (${summary})` };
    if (TELLS.saas.some(has)) return { ...base, flavour: "saas", found: `Whaticket SaaS (${summary})` };
    return { ...base, found: `a SaaS-derived schema without the baseline's migrations (${summary})` };
  }
  if (has(TELLS.communityQuickAnswers)) {
    if (last !== COMMUNITY_LAST) {
      return { ...base, found: `a Whaticket Community schema newer than the last known release (${summary})` };
    }
    return { ...base, flavour: "community", found: `Whaticket Community (${summary})` };
  }
  return { ...base, found: `an unknown Sequelize schema (${summary})` };
}
