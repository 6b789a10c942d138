import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { findPostgresBinaries, type PostgresBinaries } from "./binaries.js";
import { GUARDIAN_SCRIPT, LOCK_BUSY_EXIT } from "./guardian.js";
import { clearHolder, describeHolder, holderAlive, postmasterPidOf, readHolder, selfAsHolder, writeHolder } from "./holder.js";
import { checkReachable, chooseRunAs, giveTo, type RunAs } from "./identity.js";
import { memoryBudget, memorySettings } from "./memory.js";
import { isOurPostmaster, parentOf, stopOrphan } from "./orphan.js";

export interface EmbeddedOptions {
  /** DATA_DIR: the cluster lives in DATA_DIR/postgres. */
  dataDir: string;
  /** Extra `-c name=value` settings (tests: fsync=off; the WAL test: a small max_wal_size). They win over the memory's. */
  settings?: Record<string, string>;
  /**
   * The memory the server sizes its buffers to (memory.ts; EMBEDDED_PG_MEMORY_MB). Default: the
   * machine's, or its container's limit.
   */
  memoryBytes?: number;
  /** Log lines (start, orphan stopped, ...). */
  log?: (message: string) => void;
  /** As root: force a strategy (tests of the fallback). */
  runAs?: "namespace" | "system-user";
  /** Keep the server's log in DATA_DIR/postgres/log (default true; the test suite's server keeps none). */
  logFiles?: boolean;
}

/** How to reach the embedded server: node-postgres options and the same as a URL. */
export interface EmbeddedConnection {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** postgresql://postgres:…@/zapdesk?host=/path/to/socket-dir&port=5432 (the socket is a folder). */
  url: string;
}

export interface EmbeddedServer {
  connection: EmbeddedConnection;
  pgdata: string;
  postmasterPid: number;
  major: number;
  /** Record the HTTP port in the holder file, so a second start can name it. */
  announce(details: { httpPort?: number }): void;
  /** Fast shutdown (active transactions rolled back, a checkpoint written); resolves when the postmaster is gone. */
  stop(): Promise<void>;
}

export class DataDirInUseError extends Error {}

const PORT = 5432;
const SUPERUSER = "postgres";
export const EMBEDDED_DATABASE = "zapdesk";

export const pgdataOf = (dataDir: string) => join(dataDir, "postgres");
const passwordFile = (dataDir: string) => join(dataDir, ".postgres_password");

/** The socket lives in the cluster folder (mode 700: only its owner connects), unless that path is too long for a socket. */
function socketDirOf(pgdata: string): string {
  if (Buffer.byteLength(join(pgdata, `.s.PGSQL.${PORT}`)) < 100) return pgdata;
  const dir = join(tmpdir(), `zapdesk-pg-${createHash("sha256").update(pgdata).digest("hex").slice(0, 12)}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Where the embedded server of a DATA_DIR is reached, whether or not it runs (backup and restore tools). */
export function embeddedConnection(dataDir: string, database = EMBEDDED_DATABASE): EmbeddedConnection {
  const host = process.platform === "win32" ? "127.0.0.1" : socketDirOf(pgdataOf(dataDir));
  const port = process.platform === "win32" ? windowsPort(dataDir) : PORT;
  const password = readFileSync(passwordFile(dataDir), "utf8").trim();
  // A host in the authority keeps the URL parseable by WHATWG URL; node-postgres takes ?host= over it.
  const url = `postgresql://${SUPERUSER}:${encodeURIComponent(password)}@localhost:${port}/${database}?host=${encodeURIComponent(host)}`;
  return { host, port, user: SUPERUSER, password, database, url };
}

/** Windows has no Unix socket here: a loopback port of its own, chosen once and kept beside the password. */
function windowsPort(dataDir: string): number {
  const file = join(dataDir, ".postgres_port");
  if (!existsSync(file))
    writeFileSync(file, String(20_000 + (createHash("sha256").update(dataDir).digest().readUInt16BE(0) % 30_000)));
  return Number(readFileSync(file, "utf8"));
}

/** Create the cluster on the first start: UTF-8, the builtin C.UTF-8 locale (same on every OS), checksums on. */
function initialise(bin: PostgresBinaries, runAs: RunAs, dataDir: string, pgdata: string): void {
  const password = randomBytes(24).toString("base64url");
  writeFileSync(passwordFile(dataDir), password, { mode: 0o600 });
  mkdirSync(pgdata, { recursive: true, mode: 0o700 });
  // initdb reads the password from a file, in a folder of its own that only its user can read.
  const pwdir = mkdtempSync(join(tmpdir(), "zapdesk-initdb-"));
  const pwfile = join(pwdir, "password");
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  giveTo(runAs, pgdata);
  giveTo(runAs, pwdir);
  const args = [
    `--pgdata=${pgdata}`,
    `--username=${SUPERUSER}`,
    `--pwfile=${pwfile}`,
    "--auth=scram-sha-256",
    "--encoding=UTF8",
    "--locale-provider=builtin",
    "--builtin-locale=C.UTF-8",
    "--locale=C",
    "--no-instructions",
  ];
  const command = runAs.kind === "namespace" ? [...runAs.prefix, bin.initdb, ...args] : [bin.initdb, ...args];
  const run = spawnSync(command[0]!, command.slice(1), {
    encoding: "utf8",
    ...(runAs.kind === "system-user" ? { uid: runAs.uid, gid: runAs.gid } : {}),
  });
  rmSync(pwdir, { recursive: true, force: true });
  if (run.status !== 0) {
    rmSync(pgdata, { recursive: true, force: true });
    throw new Error(`initdb failed (${run.status ?? run.error?.message}): ${run.stderr}`);
  }
}

/**
 * Start the embedded PostgreSQL of a DATA_DIR (creating it on the first start) and resolve once it
 * accepts connections. Refuses (DataDirInUseError) when another live Zapdesk holds the folder;
 * stops a postmaster left behind by a Zapdesk that died.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const log = options.log ?? (() => {});
  const { dataDir } = options;
  const bin = findPostgresBinaries();
  const runAs = chooseRunAs(options.runAs);
  mkdirSync(dataDir, { recursive: true });
  checkReachable(runAs, bin.postgres, dataDir);
  const pgdata = pgdataOf(dataDir);

  await takeOverFromOrphan(dataDir, pgdata, log);
  if (!existsSync(join(pgdata, "PG_VERSION"))) {
    log(`creating the embedded PostgreSQL ${bin.major} in ${pgdata}`);
    initialise(bin, runAs, dataDir, pgdata);
  }
  giveTo(runAs, pgdata);
  const lockFile = join(dataDir, "postgres.lock");
  writeFileSync(lockFile, "", { flag: "a" });
  if (runAs.kind === "system-user") chownSync(lockFile, runAs.uid, runAs.gid);

  const connection = embeddedConnection(dataDir);
  // What an administrator set with ALTER SYSTEM wins: a `-c` would override it.
  const altered = alteredSettings(pgdata);
  const memory = Object.fromEntries(
    Object.entries(memorySettings(options.memoryBytes ?? memoryBudget())).filter(([name]) => !altered.has(name)),
  );
  const settings: Record<string, string> = {
    ...memory,
    port: String(connection.port),
    listen_addresses: process.platform === "win32" ? "127.0.0.1" : "",
    ...(process.platform === "win32" ? {} : { unix_socket_directories: connection.host, unix_socket_permissions: "0700" }),
    ...(options.logFiles === false
      ? {}
      : {
          logging_collector: "on",
          log_directory: "log",
          log_filename: "postgresql-%a.log",
          log_truncate_on_rotation: "on",
          log_rotation_age: "1d",
          log_rotation_size: "0",
        }),
    ...options.settings,
  };
  const postgresArgs = [bin.postgres, "-D", pgdata, ...Object.entries(settings).flatMap(([k, v]) => ["-c", `${k}=${v}`])];
  const command = runAs.kind === "namespace" ? [...runAs.prefix, ...postgresArgs] : postgresArgs;
  const child =
    process.platform === "win32"
      ? spawn(command[0]!, command.slice(1), { stdio: ["pipe", "ignore", "pipe"], windowsHide: true })
      : spawn("sh", ["-c", GUARDIAN_SCRIPT, "zapdesk-postgres", lockFile, ...command], {
          stdio: ["pipe", "ignore", "pipe"],
          // Its own session: a Ctrl-C in the terminal reaches Zapdesk, which drains, then stops the database.
          detached: true,
          ...(runAs.kind === "system-user" ? { uid: runAs.uid, gid: runAs.gid } : {}),
        });
  // The guardian gone first (killed with its group) must not crash Zapdesk with an EPIPE on its pipe.
  child.stdin?.on("error", () => {});
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const started = Date.now();
  const postmasterPid = await waitUntilReady(connection, pgdata, child, exited).catch((error: Error) => {
    if (child.exitCode === null) child.kill("SIGKILL");
    const busy = child.exitCode === LOCK_BUSY_EXIT || /lock file .* already exists/.test(stderr);
    if (busy) throw new DataDirInUseError(describeHolder(dataDir, readHolder(dataDir), postmasterPidOf(pgdata)));
    throw new Error(`The embedded PostgreSQL did not start: ${error.message}\n${stderr.trim()}`);
  });
  await ensureDatabase(connection);
  const holder = { ...selfAsHolder(), postmasterPid };
  writeHolder(dataDir, holder);
  log(
    `embedded PostgreSQL ${bin.major} ready in ${Date.now() - started} ms (pid ${postmasterPid}, ${pgdata}; ` +
      `shared_buffers ${settings.shared_buffers ?? "as altered"})`,
  );

  // A Node crash (an uncaught error, process.exit) still stops the postmaster; kill -9 is the guardian's.
  let stopped = false;
  const onExit = () => {
    if (!stopped) signal(postmasterPid, "SIGINT");
  };
  process.once("exit", onExit);

  return {
    connection,
    pgdata,
    postmasterPid,
    major: bin.major,
    announce({ httpPort }) {
      Object.assign(holder, { httpPort });
      writeHolder(dataDir, holder);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      process.off("exit", onExit);
      signal(postmasterPid, "SIGINT");
      child.stdin?.end();
      await exited;
      clearHolder(dataDir);
    },
  };
}

/** The settings postgresql.auto.conf holds (ALTER SYSTEM's), by name; none when it cannot be read. */
function alteredSettings(pgdata: string): Set<string> {
  try {
    const text = readFileSync(join(pgdata, "postgresql.auto.conf"), "utf8");
    return new Set([...text.matchAll(/^\s*([A-Za-z_.]+)\s*=/gm)].map((match) => match[1]!.toLowerCase()));
  } catch {
    return new Set();
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

/** A postmaster still running on this folder: refuse if its Zapdesk lives, stop it if that Zapdesk died. */
async function takeOverFromOrphan(dataDir: string, pgdata: string, log: (message: string) => void): Promise<void> {
  const pid = postmasterPidOf(pgdata);
  if (pid === undefined || !isOurPostmaster(pid, pgdata)) return;
  const holder = readHolder(dataDir);
  if (!holder || holderAlive(holder)) throw new DataDirInUseError(describeHolder(dataDir, holder, pid));
  log(`stopping the embedded PostgreSQL (pid ${pid}) left running by Zapdesk pid ${holder.pid}, which is gone`);
  await stopOrphan(pid);
  clearHolder(dataDir);
}

async function ensureDatabase(connection: EmbeddedConnection): Promise<void> {
  const client = new pg.Client({ ...connection, database: "postgres" });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [connection.database]);
    if (!rowCount) await client.query(`create database ${client.escapeIdentifier(connection.database)}`);
  } finally {
    await client.end();
  }
}

async function waitUntilReady(
  connection: EmbeddedConnection,
  pgdata: string,
  child: ChildProcess,
  exited: Promise<number | null>,
): Promise<number> {
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  // Crash recovery after a kill replays the WAL since the last checkpoint: bounded by max_wal_size.
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (gone || child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
    const client = new pg.Client({ ...connection, database: "postgres", connectionTimeoutMillis: 2000 });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.end();
      // Ours, not another holder's that answered on the same socket before our start failed.
      const pid = postmasterPidOf(pgdata);
      if (pid && (pid === child.pid || parentOf(pid) === child.pid)) return pid;
    } catch {
      await client.end().catch(() => {});
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("not ready after 5 minutes");
}
