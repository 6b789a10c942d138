import { sql } from "drizzle-orm";
import { timestamp } from "drizzle-orm/pg-core";

/** Column helpers shared by the schema files. */
export const tz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
export const createdAt = () => tz("created_at").notNull().defaultNow();
export const updatedAt = () => tz("updated_at").notNull().defaultNow();
/** A trigram index's column (pg_trgm). */
export const trgm = (column: { name: string }) => sql`${sql.identifier(column.name)} gin_trgm_ops`;
