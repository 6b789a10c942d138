import { createReadStream, createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { configOrExit } from "../server.js";
import { writeBackup } from "./backup.js";
import { openForMaintenance, openMediaStorage } from "./maintenance.js";
import { backupFileName } from "./names.js";
import { restoreBackup } from "./restore.js";

/** npm runs workspace scripts in the package folder; paths the user typed are relative to where they typed them. */
const fromUser = (path: string) => (isAbsolute(path) ? path : resolve(process.env.INIT_CWD ?? process.cwd(), path));

async function backup(target: string | undefined) {
  const config = configOrExit();
  const file = fromUser(target ?? backupFileName());
  const database = await openForMaintenance(config);
  const storage = openMediaStorage(config);
  const partial = `${file}.partial`;
  try {
    const trailer = await writeBackup(createWriteStream(partial), {
      database,
      storage,
      mediaKind: config.mediaStorage?.kind === "s3" ? "s3" : "local",
      onProgress: ({ table, rows, files }) => {
        if (table) console.log(`  ${table}: ${rows} rows`);
        else if (files) console.log(`  media: ${files} files`);
      },
    });
    // Only a complete backup carries the final name.
    await rename(partial, file);
    const rows = Object.values(trailer.tables).reduce((a, b) => a + b, 0);
    console.log(`\nBackup written to ${file}`);
    console.log(
      `  ${Object.keys(trailer.tables).length} tables, ${rows} rows, ${trailer.files} media files (${trailer.bytes} bytes)`,
    );
    if (trailer.missing) console.log(`  ${trailer.missing} media files named by rows were already gone from storage`);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    await database.close();
    await storage.close();
  }
}

async function restore(source: string | undefined, force: boolean) {
  if (!source) {
    console.error("Usage: npm run restore -- <backup file> [--force]");
    process.exit(2);
  }
  const config = configOrExit();
  const database = await openForMaintenance(config);
  const storage = openMediaStorage(config);
  try {
    const report = await restoreBackup(createReadStream(fromUser(source)), {
      database,
      storage,
      force,
      onProgress: ({ table, rows, files }) => {
        if (table) console.log(`  ${table}: ${rows} rows`);
        else if (files) console.log(`  media: ${files} files`);
      },
    });
    console.log(
      `\nRestored the backup of ${report.createdAt} into ${config.databaseUrl ? "DATABASE_URL" : config.dataDir}, verified:`,
    );
    for (const table of report.tables) console.log(`  ${table.name.padEnd(28)} ${table.rows} rows`);
    console.log(`  ${report.sequences} sequences continued after the highest id, foreign keys checked`);
    console.log(`  ${report.files} media files (${report.bytes} bytes)`);
    if (report.migrations.appliedAfter.length)
      console.log(`  migrations applied after the data: ${report.migrations.appliedAfter.join(", ")}`);
    if (report.missing.length)
      console.log(`  ${report.missing.length} media files were already missing when the backup was made`);
  } finally {
    await database.close();
    await storage.close();
  }
}

const [command, ...args] = process.argv.slice(2);
const run =
  command === "backup"
    ? backup(args.find((a) => !a.startsWith("--")))
    : restore(
        args.find((a) => !a.startsWith("--")),
        args.includes("--force"),
      );
run.catch((error: unknown) => {
  console.error(`\n${command} failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
