import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const serverRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The scripts the tests run as processes of their own (`npm start`, the CLIs, the Baileys kill
 * child), relative to the server package.
 */
export const BUNDLED_SCRIPTS = [
  "src/main.ts",
  "src/backup/cli.ts",
  "src/admin/cli.ts",
  "src/import/cli.ts",
  "test/baileys/kill-child.ts",
] as const;

/** Stops a process whose test process is gone (exit-with-parent.mjs), loaded before the script. */
const EXIT_WITH_PARENT = pathToFileURL(join(serverRoot, "test", "exit-with-parent.mjs")).href;

/** Started as `node <bundle>/run.mjs <script> ...args`: the script's argv as under `tsx <script>`, then its bundle. */
const RUNNER = `import ${JSON.stringify(EXIT_WITH_PARENT)};
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
const here = import.meta.dirname;
const serverRoot = ${JSON.stringify(serverRoot)};
const script = process.argv[2];
process.argv.splice(1, 2, resolve(serverRoot, script));
await import(pathToFileURL(join(here, script.replace(/\\.ts$/, ".js"))).href);
`;

/**
 * Compile the server's processes once per test run (test/global-setup.ts) instead of at each of
 * their starts: `node --import tsx` compiles and loads some 400 modules on every start (about 5.5 s
 * of CPU for a CLI that prints its usage), the bundle about 2 s.
 *
 * Each module keeps its own `import.meta.url` (migrations, the web build and the PostgreSQL
 * binaries are found from their source folder), the workspace's packages are compiled in, every
 * other package is loaded from node_modules as under tsx. The folder must lie inside the server
 * package, so that those packages resolve from it.
 */
export async function buildServerBundle(outDir: string): Promise<void> {
  removeStaleBundles(dirname(outDir));
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: BUNDLED_SCRIPTS.map((script) => join(serverRoot, script)),
    outbase: serverRoot,
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "error",
    plugins: [
      {
        name: "zapdesk-test-bundle",
        setup(bundle) {
          // Packages stay external, except the workspace's own (TypeScript sources).
          bundle.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith("@zapdesk/") ? undefined : { path: args.path, external: true },
          );
          bundle.onLoad({ filter: /\.ts$/ }, (args) => ({
            contents: readFileSync(args.path, "utf8").replaceAll(
              "import.meta.url",
              JSON.stringify(pathToFileURL(args.path).href),
            ),
            loader: "ts",
          }));
        },
      },
    ],
  });
  writeFileSync(join(outDir, "run.mjs"), RUNNER);
}

/** Bundles a run left behind (interrupted before its teardown), a day old or more. */
function removeStaleBundles(cacheDir: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(cacheDir).filter((name) => name.startsWith("zapdesk-test-"));
  } catch {
    return;
  }
  for (const name of names) {
    const dir = join(cacheDir, name);
    if (Date.now() - statSync(dir).mtimeMs > 86_400_000) rmSync(dir, { recursive: true, force: true });
  }
}

/** Where a test run keeps its bundle (removed at the run's end). */
export const bundleDirOf = (runId: string) => join(serverRoot, "node_modules", ".cache", `zapdesk-test-${runId}`);

/**
 * The node arguments that start `script` (relative to the server package, as in BUNDLED_SCRIPTS):
 * from the run's bundle when there is one, else under tsx.
 */
export function nodeArgsFor(script: string, bundleDir: string | undefined): string[] {
  const inBundle = (BUNDLED_SCRIPTS as readonly string[]).includes(script);
  if (bundleDir && inBundle) return [join(bundleDir, "run.mjs"), script];
  return ["--import", EXIT_WITH_PARENT, "--import", "tsx", script];
}
