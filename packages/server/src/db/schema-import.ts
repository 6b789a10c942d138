import { bigint, boolean, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt } from "./schema-columns.js";

/**
 * Issue 21: which source row (of an imported Whaticket-family database) each imported row came
 * from. `merged`: the source row was folded into a row that already existed (a twin, a LID alias,
 * an email or name that was already here).
 */
export const importMap = pgTable(
  "import_map",
  {
    source: text("source").notNull(),
    entity: text("entity").notNull(),
    sourceId: text("source_id").notNull(),
    targetId: bigint("target_id", { mode: "number" }).notNull(),
    merged: boolean("merged").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.source, t.entity, t.sourceId] }), index("import_map_target_idx").on(t.entity, t.targetId)],
);
