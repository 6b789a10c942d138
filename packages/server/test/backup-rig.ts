import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listTables, quoteIdent, rowsOf } from "../src/backup/snapshot.js";
import { type Database, openDatabase } from "../src/db/client.js";
import { migrate } from "../src/db/migrate.js";
import { createMediaStorage } from "../src/media/storage.js";
import { customerNumber, customerWrites } from "./conversation.js";
import type { TestUser } from "./factories.js";
import type { TestApp } from "./harness.js";

/**
 * An embedded database as `npm start` makes one: its own PostgreSQL in a fresh DATA_DIR, migrated
 * by the same code; close() stops it and removes the folder.
 */
export async function openEmbedded(): Promise<Database> {
  const dataDir = await mkdtemp(join(tmpdir(), "zapdesk-embedded-"));
  const database = await openDatabase({ dataDir, poolSize: 5 });
  await migrate(database);
  return {
    ...database,
    close: async () => {
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A media folder of its own. */
export async function freshMedia() {
  const root = await mkdtemp(join(tmpdir(), "zapdesk-media-"));
  return { root, storage: createMediaStorage(root) };
}

/** A customer message with a PDF of random bytes (so every file differs). */
export async function customerSendsFile(t: TestApp, admin: TestUser, connectionId: number, from = customerNumber()) {
  const data = Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(20_000 + Math.floor(Math.random() * 20_000))]);
  await customerWrites(t, admin, connectionId, {
    from,
    body: `file from ${from}`,
    media: { mimetype: "application/pdf", filename: "doc.pdf", dataBase64: data.toString("base64") },
  });
  return data;
}

/** Every table's rows as PostgreSQL's JSON text, sorted: two databases hold the same data iff these are equal. */
export async function everyRow(database: Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of await listTables(database.db)) {
    if (table.name === "zapdesk_migrations") continue;
    const columns = table.columns.map(quoteIdent).join(", ");
    const rows = await rowsOf<{ j: string }>(
      database.db,
      `select row_to_json(r)::text as j from (select ${columns} from ${quoteIdent(table.name)}) r order by 1`,
    );
    out[table.name] = rows.map((r) => r.j);
  }
  return out;
}
