import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

/**
 * Who runs the embedded server of a DATA_DIR. PostgreSQL's own lock (postmaster.pid) says a
 * postmaster is alive; this file says which Zapdesk process started it and where it serves, so
 * a second start can name the holder, and a postmaster whose Zapdesk is gone (kill -9) can be
 * told apart from one that is in use.
 */
export interface Holder {
  pid: number;
  /** The process's start time (Linux: clock ticks since boot), so a recycled pid is not mistaken for it. */
  started?: string;
  hostname: string;
  postmasterPid?: number;
  /** The HTTP port, once the server listens. */
  httpPort?: number;
  since: string;
}

export const holderFile = (dataDir: string) => join(dataDir, "postgres.holder.json");

export function readHolder(dataDir: string): Holder | undefined {
  try {
    return JSON.parse(readFileSync(holderFile(dataDir), "utf8")) as Holder;
  } catch {
    return undefined;
  }
}

export function writeHolder(dataDir: string, holder: Holder): void {
  writeFileSync(holderFile(dataDir), `${JSON.stringify(holder)}\n`, { mode: 0o600 });
}

export function clearHolder(dataDir: string): void {
  rmSync(holderFile(dataDir), { force: true });
}

export function selfAsHolder(): Holder {
  return { pid: process.pid, started: startTimeOf(process.pid), hostname: hostname(), since: new Date().toISOString() };
}

/** Field 22 of /proc/<pid>/stat; undefined where there is no /proc. */
export function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: count from the last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, owned by another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The holder's process still runs (and is the same process, where the start time can be read). */
export function holderAlive(holder: Holder): boolean {
  if (holder.hostname !== hostname()) return true;
  if (!isAlive(holder.pid)) return false;
  const started = startTimeOf(holder.pid);
  return holder.started === undefined || started === undefined || started === holder.started;
}

/** The postmaster's pid from PostgreSQL's lock file (first line), if the file exists. */
export function postmasterPidOf(pgdata: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(pgdata, "postmaster.pid"), "utf8").split("\n")[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function describeHolder(dataDir: string, holder: Holder | undefined, postmasterPid: number | undefined): string {
  const who = holder
    ? `Zapdesk pid ${holder.pid}${holder.hostname !== hostname() ? ` on ${holder.hostname}` : ""}${holder.httpPort ? `, HTTP port ${holder.httpPort}` : ""}, since ${holder.since}`
    : "a PostgreSQL server not started by Zapdesk";
  const pm = postmasterPid ? `, PostgreSQL pid ${postmasterPid}` : "";
  return `DATA_DIR ${dataDir} is in use by ${who}${pm}. Stop it first (two servers on one data folder would corrupt it).`;
}
