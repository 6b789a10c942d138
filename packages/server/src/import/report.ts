import type { Flavour } from "./flavours.js";

export const ENTITIES = [
  "queues",
  "users",
  "userQueues",
  "connections",
  "connectionQueues",
  "quickAnswers",
  "tags",
  "contacts",
  "contactFields",
  "contactTags",
  "contactOwners",
  "tickets",
  "ticketTags",
  "messages",
  "notes",
  "ratings",
  "schedules",
  "settings",
] as const;
export type Entity = (typeof ENTITIES)[number];

export interface EntityCounts {
  /** Rows in the source (for this company). */
  source: number;
  /** Created by this run. */
  imported: number;
  /** Folded into a row that already existed (or another source row of the same person). */
  merged: number;
  /** Not imported (each has a reason in `skips`). */
  skipped: number;
  /** Already imported by an earlier run (found in import_map). */
  already: number;
}

export interface ImportReport {
  flavour: Flavour;
  source: string;
  company?: number;
  dryRun: boolean;
  startedAt: string;
  finishedAt?: string;
  entities: Record<Entity, EntityCounts>;
  skips: { entity: Entity; sourceId: string; reason: string }[];
  merges: { entity: Entity; sourceId: string; into: number; reason: string }[];
  /** Rows imported with a change the operator should know about (a ticket closed, a colour changed…). */
  adjustments: { entity: Entity; sourceId: string; note: string }[];
  media: { copied: number; missing: number; remote: number; bytes: number };
  verification: {
    tables: { entity: Entity; source: number; accounted: number; ok: boolean }[];
    sample: { sourceTicket: string; ticket: number; sourceMessages: number; messages: number; ok: boolean }[];
    complete: boolean;
  };
}

export interface Progress {
  entity: Entity;
  done: number;
  total: number;
  perSecond: number;
  etaSeconds: number;
}

export function emptyReport(flavour: Flavour, source: string, company: number | undefined, dryRun: boolean): ImportReport {
  return {
    flavour,
    source,
    company,
    dryRun,
    startedAt: new Date().toISOString(),
    entities: Object.fromEntries(
      ENTITIES.map((e) => [e, { source: 0, imported: 0, merged: 0, skipped: 0, already: 0 }]),
    ) as Record<Entity, EntityCounts>,
    skips: [],
    merges: [],
    adjustments: [],
    media: { copied: 0, missing: 0, remote: 0, bytes: 0 },
    verification: { tables: [], sample: [], complete: false },
  };
}
