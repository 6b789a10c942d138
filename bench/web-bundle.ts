/**
 * Web bundle sizes from the production build: the first screen (what a browser downloads to
 * sign in and land on the tickets page) and the whole build, raw, gzip and brotli. The chunks of
 * the first screen come from Vite's manifest: the entry and the login and tickets pages, with
 * everything they import statically (dynamic imports load on demand and are not counted, except
 * the default language's strings, which the first render waits for).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
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
  /** The first screen's gzip bytes by package, largest first (see attribute()). */
  firstScreenByPackage: { name: string; gzip: number }[];
}

interface ChunkStats {
  file: string;
  modules: { id: string; bytes: number }[];
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

/** What a bundled module belongs to: its npm package, core, or the web app's top-level folder. */
export function packageOf(id: string): string {
  const path = id.replace(/^\0/, "").replace(/\?.*$/, "");
  const inModules = path.lastIndexOf("/node_modules/");
  if (inModules >= 0) {
    const [first, second] = path.slice(inModules + "/node_modules/".length).split("/");
    return first.startsWith("@") ? `${first}/${second}` : first;
  }
  if (path.includes("/packages/core/")) return "@zapdesk/core";
  const app = path.match(/\/packages\/web\/src\/([^/]+)(?:\/([^/]+))?/);
  if (app) return app[1] === "features" || app[1] === "app" ? `app: ${app[1]}/${app[2]}` : `app: ${app[1]}`;
  return path.startsWith("vite/") || path.includes("vite/") ? "vite runtime" : "other";
}

/**
 * Each first-screen file's gzip size shared among the packages of its modules in proportion to
 * their rendered (minified) bytes. Compression is not linear, so this is an attribution, not a
 * measurement of each package alone; the shares add up to the measured total.
 */
function attribute(dist: string, files: string[], stats: ChunkStats[]): { name: string; gzip: number }[] {
  const byFile = new Map(stats.map((chunk) => [chunk.file, chunk]));
  const totals = new Map<string, number>();
  const add = (name: string, bytes: number) => totals.set(name, (totals.get(name) ?? 0) + bytes);
  for (const file of files) {
    const gzip = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
    const chunk = byFile.get(file);
    const rendered = chunk?.modules.reduce((sum, m) => sum + m.bytes, 0) ?? 0;
    if (!chunk || rendered === 0) {
      add(file.endsWith(".css") ? "CSS" : "chunk glue", gzip);
      continue;
    }
    for (const m of chunk.modules) add(packageOf(m.id), (gzip * m.bytes) / rendered);
  }
  return [...totals].map(([name, gzip]) => ({ name, gzip: Math.round(gzip) })).sort((a, b) => b.gzip - a.gzip);
}

export function measureBundle(root: string, build = process.env.BENCH_WEB_BUILD !== "0"): BundleReport {
  const dist = join(root, "packages/web/dist");
  const statsFile = join(dist, ".vite/bundle-stats.json");
  if (build || !existsSync(join(dist, ".vite/manifest.json")) || !existsSync(statsFile)) {
    const statsOut = join(mkdtempSync(join(tmpdir(), "zapdesk-stats-")), "stats.json");
    execFileSync("npm", ["run", "build"], {
      cwd: root,
      stdio: "ignore",
      env: { ...process.env, ZAPDESK_BUNDLE_STATS: statsOut },
    });
    // The build empties dist, so the stats are written elsewhere and copied in afterwards.
    copyFileSync(statsOut, statsFile);
    rmSync(dirname(statsOut), { recursive: true, force: true });
  }
  const manifest = JSON.parse(readFileSync(join(dist, ".vite/manifest.json"), "utf8")) as Record<string, ManifestChunk>;
  const firstScreenFiles = staticClosure(manifest, [...FIRST_SCREEN, ...FIRST_SCREEN_ON_DEMAND.filter((key) => key in manifest)]);
  const everything = readdirSync(join(dist, "assets"))
    .filter((file) => /\.(js|css)$/.test(file))
    .map((file) => `assets/${file}`);
  const stats = JSON.parse(readFileSync(statsFile, "utf8")) as ChunkStats[];
  return {
    firstScreen: sizeOf(dist, firstScreenFiles),
    firstScreenFiles,
    total: sizeOf(dist, everything),
    firstScreenByPackage: attribute(dist, firstScreenFiles, stats),
  };
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

export function renderBundle(report: BundleReport): string {
  const row = (name: string, s: Sizes) => `| ${name} | ${s.files} | ${kB(s.raw)} | ${kB(s.gzip)} | ${kB(s.brotli)} |`;
  return [
    "| web bundle (JS + CSS) | files | raw | gzip | brotli |",
    "|---|---|---|---|---|",
    row("first screen (login → tickets)", report.firstScreen),
    row("whole build", report.total),
    "",
    "The first screen by package (gzip; each file's compressed size shared by its modules' minified bytes):",
    "",
    "| package | gzip | share |",
    "|---|---:|---:|",
    ...report.firstScreenByPackage
      .filter((p) => p.gzip >= 1000)
      .map((p) => `| ${p.name} | ${kB(p.gzip)} | ${((100 * p.gzip) / report.firstScreen.gzip).toFixed(1)}% |`),
    `| everything under 1 kB | ${kB(report.firstScreenByPackage.filter((p) => p.gzip < 1000).reduce((sum, p) => sum + p.gzip, 0))} | |`,
  ].join("\n");
}

if (process.argv[1]?.endsWith("web-bundle.ts")) {
  const report = measureBundle(join(import.meta.dirname, ".."));
  console.log(renderBundle(report));
}
