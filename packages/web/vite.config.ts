import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

const api = process.env.ZAPDESK_API ?? "http://localhost:8080";

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;
/** Below this a compressed copy saves less than the headers it costs. */
const MIN_BYTES = 1024;

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );

/**
 * Writes `<file>.br` and `<file>.gz` beside every text asset once the bundle is on disk, so the
 * server answers compressed bytes without compressing per request (it negotiates on Accept-Encoding).
 */
function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "zapdesk-precompress",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir.startsWith("/") ? config.build.outDir : join(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of filesUnder(outDir)) {
        if (!COMPRESSIBLE.test(file) || statSync(file).size < MIN_BYTES) continue;
        const content = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(content, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
          }),
        );
      }
    },
  };
}

/**
 * main renders once the language strings are in, and pt (the fallback, always loaded) is a chunk
 * of its own: a preload link lets the browser fetch it with the entry instead of after it.
 */
function preloadFallbackLanguage(): Plugin {
  let base = "/";
  return {
    name: "zapdesk-preload-language",
    apply: "build",
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: "post",
      handler(_html, ctx) {
        const chunk = Object.values(ctx.bundle ?? {}).find(
          (output) => output.type === "chunk" && output.facadeModuleId?.endsWith("/src/locales/pt/index.ts"),
        );
        if (chunk?.type !== "chunk") return;
        return [chunk.fileName, ...chunk.imports].map((file) => ({
          tag: "link",
          attrs: { rel: "modulepreload", crossorigin: "", href: `${base}${file}` },
          injectTo: "head" as const,
        }));
      },
    },
  };
}

/**
 * ZAPDESK_BUNDLE_STATS=<file> (the benchmark sets it): writes each chunk's modules and their
 * rendered sizes, so the first screen can be attributed to the packages it is made of.
 */
function bundleStats(file: string | undefined): Plugin | undefined {
  if (!file) return undefined;
  return {
    name: "zapdesk-bundle-stats",
    apply: "build",
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((output) =>
        output.type === "chunk"
          ? [
              {
                file: output.fileName,
                modules: Object.entries(output.modules).map(([id, info]) => ({ id, bytes: info.renderedLength })),
              },
            ]
          : [],
      );
      writeFileSync(file, JSON.stringify(chunks));
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress(), preloadFallbackLanguage(), bundleStats(process.env.ZAPDESK_BUNDLE_STATS)],
  server: {
    port: 5173,
    proxy: {
      "/api": { target: api, changeOrigin: true },
      "/socket.io": { target: api, ws: true, changeOrigin: true },
    },
  },
  // No source maps in the shipped build: they would publish the source. The manifest lets the
  // benchmark tell the first screen's chunks from the ones loaded on demand.
  build: { outDir: "dist", sourcemap: false, manifest: true },
});
