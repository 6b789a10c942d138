import { mkdir, writeFile } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { openForMaintenance, openMediaStorage } from "../backup/maintenance.js";
import { migrate } from "../db/migrate.js";
import { configOrExit } from "../server.js";
import { detectFlavour, FLAVOUR_NAMES, FLAVOURS, type Flavour } from "./flavours.js";
import { ENTITIES, type ImportReport, ImportUsageError, type Progress, runImport } from "./importer.js";
import { openSource, redact } from "./source.js";

/**
 * `npm run import -- --from <url> [--media <dir>]… [--company <id>] [--flavour <name>] [--adopt-sessions] [--dry-run] [--yes]`
 *
 * Exit codes: 0 imported and verified complete; 1 failed; 2 usage error or a source refused
 * (unknown flavour, company not chosen, not confirmed); 3 finished, but the verification found the
 * import incomplete (see the report).
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, incomplete: 3 } as const;

const USAGE = `Usage: npm run import -- --from <postgres://… | mysql://…> [options]
  --media <dir>      the old backend's public/ folder (repeat for Ticketz's private/)
  --company <id>     the company to import, for multi-company sources
  --flavour <name>   override the detected flavour (${FLAVOURS.join(", ")})
  --adopt-sessions   move the linked WhatsApp sessions (SaaS, Ticketz) so no new QR is needed;
                     only with the old system stopped (asked, or confirmed by --yes)
  --dry-run          read everything, write nothing, print the same report
  --yes              do not ask for confirmation (non-interactive runs)
  --batch-size <n>   rows per transaction (default 1000)
  --source-timezone <±hh:mm>  how a MySQL source's DATETIME values are read (default -03:00)`;

interface Args {
  from?: string;
  media: string[];
  company?: number;
  flavour?: string;
  dryRun: boolean;
  yes: boolean;
  adoptSessions: boolean;
  batchSize?: number;
  timezone?: string;
}

const fromUser = (path: string) => (isAbsolute(path) ? path : resolve(process.env.INIT_CWD ?? process.cwd(), path));

export function parseArgs(argv: string[]): Args {
  const args: Args = { media: [], dryRun: false, yes: false, adoptSessions: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [name, inline] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "") throw new ImportUsageError(`${name} needs a value`);
      return v;
    };
    switch (name) {
      case "--from":
        args.from = value();
        break;
      case "--media":
        args.media.push(fromUser(value()));
        break;
      case "--company": {
        const v = Number(value());
        if (!Number.isInteger(v) || v <= 0) throw new ImportUsageError("--company takes a company id (a positive number)");
        args.company = v;
        break;
      }
      case "--flavour":
      case "--flavor":
        args.flavour = value();
        break;
      case "--dry-run":
        args.dryRun = true;
        break;
      case "--adopt-sessions":
        args.adoptSessions = true;
        break;
      case "--yes":
      case "-y":
        args.yes = true;
        break;
      case "--batch-size": {
        const v = Number(value());
        if (!Number.isInteger(v) || v < 1 || v > 10_000) throw new ImportUsageError("--batch-size takes 1 to 10000");
        args.batchSize = v;
        break;
      }
      case "--source-timezone": {
        const v = value();
        if (!/^[+-]\d{2}:\d{2}$/.test(v)) throw new ImportUsageError("--source-timezone takes ±hh:mm, e.g. -03:00");
        args.timezone = v;
        break;
      }
      case "--help":
      case "-h":
        console.log(USAGE);
        process.exit(EXIT.ok);
        break;
      default:
        throw new ImportUsageError(`unknown option ${arg}`);
    }
  }
  if (!args.from) throw new ImportUsageError("--from <url> is required");
  if (args.flavour !== undefined && !FLAVOURS.includes(args.flavour as Flavour)) {
    throw new ImportUsageError(`--flavour must be one of ${FLAVOURS.join(", ")}`);
  }
  return args;
}

function progressPrinter() {
  const tty = process.stdout.isTTY;
  let lastPrint = 0;
  let lastEntity = "";
  return (p: Progress) => {
    const now = Date.now();
    const finished = p.done >= p.total;
    if (!finished && p.entity === lastEntity && now - lastPrint < 1000) return;
    lastPrint = now;
    lastEntity = p.entity;
    const line = `  ${p.entity.padEnd(16)} ${String(p.done).padStart(9)} / ${String(p.total).padEnd(9)} ${Math.round(p.perSecond)
      .toString()
      .padStart(7)} rows/s  ETA ${finished ? "done" : `${Math.ceil(p.etaSeconds)} s`}`;
    if (tty) process.stdout.write(`\r${line}${finished ? "\n" : ""}`);
    else console.log(line);
  };
}

export function printReport(report: ImportReport, log: (line: string) => void = console.log) {
  log(`\n${report.dryRun ? "Dry run (nothing written)" : "Import"} of ${report.source} (${FLAVOUR_NAMES[report.flavour]}):`);
  log(
    `  ${"entity".padEnd(16)} ${"source".padStart(8)} ${"imported".padStart(9)} ${"merged".padStart(7)} ${"skipped".padStart(8)} ${"already".padStart(8)}`,
  );
  for (const entity of ENTITIES) {
    const c = report.entities[entity];
    if (!c.source && !c.imported) continue;
    log(
      `  ${entity.padEnd(16)} ${String(c.source).padStart(8)} ${String(c.imported).padStart(9)} ${String(c.merged).padStart(7)} ${String(c.skipped).padStart(8)} ${String(c.already).padStart(8)}`,
    );
  }
  log(
    `  media: ${report.media.copied} files ${report.dryRun ? "found" : "copied"} (${report.media.bytes} bytes), ${report.media.missing} not found, ${report.media.remote} at remote URLs`,
  );
  const show = <T>(title: string, list: T[], line: (item: T) => string) => {
    if (!list.length) return;
    log(`\n${title} (${list.length}):`);
    for (const item of list.slice(0, 20)) log(`  ${line(item)}`);
    if (list.length > 20) log(`  … and ${list.length - 20} more in the JSON report`);
  };
  show("Skipped", report.skips, (s) => `${s.entity} ${s.sourceId}: ${s.reason}`);
  show("Merged", report.merges, (m) => `${m.entity} ${m.sourceId} → ${m.into}: ${m.reason}`);
  show("To know", report.adjustments, (a) => `${a.entity} ${a.sourceId}: ${a.note}`);
  const bad = report.verification.tables.filter((t) => !t.ok);
  log(
    `\nVerified: ${report.verification.tables.length - bad.length}/${report.verification.tables.length} tables reconciled, ${report.verification.sample.filter((s) => s.ok).length}/${report.verification.sample.length} sampled conversations identical.`,
  );
  for (const t of bad) log(`  ${t.entity}: ${t.source} in the source, ${t.accounted} accounted for`);
  for (const s of report.verification.sample.filter((x) => !x.ok))
    log(`  conversation ${s.sourceTicket} → ticket ${s.ticket} differs`);
  log(
    report.verification.complete
      ? "The import is complete."
      : "The import is NOT complete: run it again to continue, then read the report.",
  );
}

async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(argv);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  const config = configOrExit();
  const from = args.from as string;
  const source = await openSource(from, { timezone: args.timezone }).catch((error: Error) => {
    throw new Error(`could not open ${redact(from)}: ${error.message}`);
  });
  try {
    const detection = await detectFlavour(source);
    console.log(`Source: ${redact(from)}\nFound: ${detection.found}`);
    const flavour = (args.flavour as Flavour | undefined) ?? detection.flavour;
    if (!flavour) {
      console.error("Refused: this importer reads only the flavours it knows, and does not guess. Use --flavour to insist.");
      return EXIT.usage;
    }
    if (args.flavour && args.flavour !== detection.flavour) console.log(`Reading it as ${FLAVOUR_NAMES[flavour]} (--flavour).`);
    const target = config.databaseUrl ? "the PostgreSQL database in DATABASE_URL" : `the embedded database in ${config.dataDir}`;
    if (!args.dryRun && !args.yes) {
      if (!process.stdin.isTTY) {
        console.error("Refused: not a terminal. Pass --yes to import without a question (or --dry-run first).");
        return EXIT.usage;
      }
      if (!(await confirm(`Import ${FLAVOUR_NAMES[flavour]} into ${target}? [y/N] `))) {
        console.error("Nothing imported.");
        return EXIT.usage;
      }
      // Two clients on one WhatsApp session log each other out: the old one must be off for good.
      if (
        args.adoptSessions &&
        !(await confirm(
          "--adopt-sessions: is the old system stopped (its backend not running, and not to be started again)? [y/N] ",
        ))
      ) {
        console.error("Nothing imported: stop the old system first, or import without --adopt-sessions.");
        return EXIT.usage;
      }
    }
    const database = await openForMaintenance(config);
    const storage = args.dryRun ? undefined : openMediaStorage(config);
    try {
      await migrate(database);
      const report = await runImport({
        source,
        flavour,
        database,
        storage,
        mediaDirs: args.media,
        company: args.company,
        dryRun: args.dryRun,
        adoptSessions: args.adoptSessions,
        batchSize: args.batchSize,
        maxMediaBytes: config.mediaMaxBytes,
        onProgress: progressPrinter(),
      });
      printReport(report);
      const dir = join(config.dataDir, "imports");
      await mkdir(dir, { recursive: true });
      const file = join(dir, `import-${report.startedAt.replace(/[:.]/g, "-")}${report.dryRun ? "-dry-run" : ""}.json`);
      await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
      console.log(`Report written to ${file}`);
      return report.verification.complete ? EXIT.ok : EXIT.incomplete;
    } finally {
      await database.close();
      await storage?.close();
    }
  } catch (error) {
    if (error instanceof ImportUsageError) {
      console.error(`Refused: ${error.message}`);
      return EXIT.usage;
    }
    throw error;
  } finally {
    await source.close();
  }
}

if (process.argv[1]?.endsWith("cli.ts") && process.argv[1].includes("import")) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`\nimport failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(EXIT.failed);
    },
  );
}
