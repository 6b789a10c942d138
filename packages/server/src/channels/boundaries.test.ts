import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Channels get ports, not imports (docs/architecture.md, issue 20 §3): the channel code reads and
 * writes the database only through its store (`channel-store.ts`), never drizzle, the schema or a
 * module's repo. Tests are exempt (they set rows up and check them).
 */
const CHANNELS = dirname(fileURLToPath(import.meta.url));
const SRC = dirname(CHANNELS);

/** Folders of `src/` a channel file must not import from. */
const FORBIDDEN_FOLDERS = ["db", "modules", "jobs", "realtime"];
/** Packages that would let a channel file talk SQL itself. */
const FORBIDDEN_PACKAGES = /^(drizzle-orm|pg|postgres)(\/|$)/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [path] : [];
  });
}

/** The specifiers a file imports or re-exports, statically or dynamically. */
function importsOf(text: string): string[] {
  const found = text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm);
  return [...found].map((match) => match[1]);
}

/** Every forbidden import of the channel files, as "file -> specifier". */
function forbiddenImports(): string[] {
  const found: string[] = [];
  for (const file of sources(CHANNELS)) {
    const name = relative(CHANNELS, file).split(sep).join("/");
    for (const specifier of importsOf(readFileSync(file, "utf8"))) {
      if (FORBIDDEN_PACKAGES.test(specifier)) {
        found.push(`${name} -> ${specifier}`);
        continue;
      }
      if (!specifier.startsWith(".")) continue;
      const target = relative(SRC, normalize(join(dirname(file), specifier))).split(sep);
      if (FORBIDDEN_FOLDERS.includes(target[0])) found.push(`${name} -> ${specifier}`);
    }
  }
  return found.sort();
}

describe("channel boundaries", () => {
  it("finds the imports it looks for (static, type-only, re-exports and dynamic)", () => {
    const text = [
      'import { eq } from "drizzle-orm";',
      'import type { Db } from "../db/client.js";',
      'export { x } from "../modules/messages/messages.repo.js";',
      'const m = await import("../jobs/outbox-worker.js");',
      'import "pg";',
    ].join("\n");
    expect(importsOf(text)).toEqual([
      "drizzle-orm",
      "../db/client.js",
      "../modules/messages/messages.repo.js",
      "../jobs/outbox-worker.js",
      "pg",
    ]);
  });

  it("no channel file imports the database, drizzle or a module: they go through the channel store", () => {
    expect(sources(CHANNELS).length).toBeGreaterThan(30);
    expect(forbiddenImports()).toEqual([]);
  });
});
