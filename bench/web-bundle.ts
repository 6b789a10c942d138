/**
 * Web bundle sizes from the production build: the first screen (what a browser downloads to
 * sign in and land on the tickets page) and the whole build, raw, gzip and brotli. The chunks of
 * the first screen come from Vite's manifest: the entry and the login and tickets pages, with
 * everything they import statically (dynamic imports load on demand and are not counted, except
 * the default language's strings, which the first render waits for).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

export interface Sizes {
  files: number;
  raw: number;
  gzip: number;
  brotli: number;
}

export interface BundleReport {
  firstScreen: Sizes;
  firstScreenFiles: string[];
  total: Sizes;
}

/** Source files whose chunks make the first screen: the app shell, the login page, the tickets page. */
export const FIRST_SCREEN = ["index.html", "src/features/auth/pages/login-page.tsx", "src/app/routes/tickets-page.tsx"];
/**
 * Chunks loaded with `import()` that the first screen still waits for: the default language's
 * strings (main renders once they are in). Counted when the build has them (older builds bundle
 * every language into the entry).
 */
export const FIRST_SCREEN_ON_DEMAND = ["src/locales/pt/index.ts"];

const sizeOf = (dist: string, files: string[]): Sizes => {
  const sizes = { files: files.length, raw: 0, gzip: 0, brotli: 0 };
  for (const file of files) {
    const content = readFileSync(join(dist, file));
    sizes.raw += content.length;
    sizes.gzip += gzipSync(content, { level: 9 }).length;
    sizes.brotli += brotliCompressSync(content).length;
  }
  return sizes;
};

/** The JS and CSS files reachable from `keys` through static imports. */
export function staticClosure(manifest: Record<string, ManifestChunk>, keys: string[]): string[] {
  const seen = new Set<string>();
  const files = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`not in the build manifest: ${key}`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const next of chunk.imports ?? []) visit(next);
  };
  for (const key of keys) visit(key);
  return [...files].sort();
}

export function measureBundle(root: string, build = process.env.BENCH_WEB_BUILD !== "0"): BundleReport {
  const dist = join(root, "packages/web/dist");
  if (build || !existsSync(join(dist, ".vite/manifest.json"))) {
    execFileSync("npm", ["run", "build"], { cwd: root, stdio: "ignore" });
  }
  const manifest = JSON.parse(readFileSync(join(dist, ".vite/manifest.json"), "utf8")) as Record<string, ManifestChunk>;
  const firstScreenFiles = staticClosure(manifest, [...FIRST_SCREEN, ...FIRST_SCREEN_ON_DEMAND.filter((key) => key in manifest)]);
  const everything = readdirSync(join(dist, "assets"))
    .filter((file) => /\.(js|css)$/.test(file))
    .map((file) => `assets/${file}`);
  return { firstScreen: sizeOf(dist, firstScreenFiles), firstScreenFiles, total: sizeOf(dist, everything) };
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

export function renderBundle(report: BundleReport): string {
  const row = (name: string, s: Sizes) => `| ${name} | ${s.files} | ${kB(s.raw)} | ${kB(s.gzip)} | ${kB(s.brotli)} |`;
  return [
    "| web bundle (JS + CSS) | files | raw | gzip | brotli |",
    "|---|---|---|---|---|",
    row("first screen (login → tickets)", report.firstScreen),
    row("whole build", report.total),
  ].join("\n");
}

if (process.argv[1]?.endsWith("web-bundle.ts")) {
  const report = measureBundle(join(import.meta.dirname, ".."));
  console.log(renderBundle(report));
}
