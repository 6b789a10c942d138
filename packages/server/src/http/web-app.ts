import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { AppError } from "../lib/app-error.js";
import { hasOverlongSegment } from "./url-limits.js";

/** The web build beside the server in the repository (WEB_DIST overrides it). */
const DEFAULT_WEB_DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../../../web/dist");

/** Hashed build output never changes under its name; everything else (index.html first) is revalidated. */
const cacheControlFor = (path: string) =>
  /[\\/]assets[\\/][^\\/]+-[\w-]{8}\.[a-z0-9]+(\.(br|gz))?$/i.test(path) ? "public, max-age=31536000, immutable" : "no-cache";

/** The SPA at `/` with history fallback; anything under /api that matched nothing is a JSON 404. */
export async function registerWeb(app: FastifyInstance, webDist = DEFAULT_WEB_DIST) {
  const hasWeb = existsSync(join(webDist, "index.html"));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: true,
      index: ["index.html"],
      // Vite's .br/.gz siblings, chosen by the request's Accept-Encoding.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, path) => reply.header("cache-control", cacheControlFor(path)),
      // Source maps would publish the source; the build's manifest (.vite/) is for the benchmark only.
      allowedPath: (path) => !path.endsWith(".map"),
      dotfiles: "ignore",
    });
  }
  // Pages without the app's <link rel="icon"> (JSON, the API docs) make browsers ask for /favicon.ico.
  if (existsSync(join(webDist, "favicon.svg"))) app.get("/favicon.ico", (_request, reply) => reply.redirect("/favicon.svg", 301));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0];
    // A missing file (anything with an extension) is a 404, not the app's page in its place.
    const isFile = /\.[a-z0-9]+$/i.test(path);
    if (path.startsWith("/api/") && hasOverlongSegment(path)) throw new AppError("ERR_URL_TOO_LONG");
    if (path.startsWith("/api") || path.startsWith("/socket.io") || request.method !== "GET" || !hasWeb || isFile) {
      throw new AppError("ERR_NOT_FOUND", { message: "Not found" });
    }
    return reply.type("text/html").sendFile("index.html");
  });
}
