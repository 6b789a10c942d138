import helmet from "@fastify/helmet";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** Where WhatsApp serves profile pictures (Baileys' profilePictureUrl); the web shows them as avatars. */
export const PROFILE_PICTURE_ORIGINS = ["https://pps.whatsapp.net"];

const HOST = /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i;

export interface CspInput {
  /** PUBLIC_URL: its scheme decides https-only directives, its host the socket origin. */
  publicUrl?: string;
  /** The Host header, for the socket origin when PUBLIC_URL is not set. */
  requestHost?: string;
  /** Origins of the pages the app embeds (sales and community pages from settings). */
  frameOrigins: string[];
}

/** socket.io's origin: the app's own host over ws/wss (older Safari does not count ws: as 'self'). */
function socketOrigins({ publicUrl, requestHost }: CspInput): string[] {
  if (publicUrl) {
    const url = new URL(publicUrl);
    return [`${url.protocol === "https:" ? "wss" : "ws"}://${url.host}`];
  }
  if (!requestHost || !HOST.test(requestHost)) return [];
  return [`ws://${requestHost}`, `wss://${requestHost}`];
}

export const isHttps = (publicUrl: string | undefined) => !!publicUrl && new URL(publicUrl).protocol === "https:";

/**
 * The Content-Security-Policy of every answer. `upgrade-insecure-requests` only for an https
 * PUBLIC_URL: on a plain-HTTP install it would send the browser to an https address nobody
 * serves, and the app would be a blank page.
 */
export function contentSecurityPolicy(input: CspInput): string {
  const directives: [string, ...string[]][] = [
    ["default-src", "'self'"],
    ["base-uri", "'self'"],
    ["script-src", "'self'"],
    ["script-src-attr", "'none'"],
    // Emotion (MUI) injects <style> elements.
    ["style-src", "'self'", "'unsafe-inline'"],
    // data: and blob: for previews of files being attached and for location thumbnails.
    ["img-src", "'self'", "data:", "blob:", ...PROFILE_PICTURE_ORIGINS],
    ["media-src", "'self'", "data:", "blob:"],
    ["font-src", "'self'", "data:"],
    ["connect-src", "'self'", ...socketOrigins(input)],
    // Issue 13: the push service worker (/sw.js) and the web app manifest, both from the app itself.
    ["worker-src", "'self'"],
    ["manifest-src", "'self'"],
    ["frame-src", ...(input.frameOrigins.length ? input.frameOrigins : ["'none'"])],
    ["frame-ancestors", "'self'"],
    ["form-action", "'self'"],
    ["object-src", "'none'"],
  ];
  if (isHttps(input.publicUrl)) directives.push(["upgrade-insecure-requests"]);
  return directives.map((d) => d.join(" ")).join("; ");
}

/** The origin of an embedded page's URL, or nothing for an empty or unusable one. */
export function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const { origin, protocol } = new URL(url);
    return protocol === "https:" || protocol === "http:" ? origin : undefined;
  } catch {
    return undefined;
  }
}

const isHtml = (reply: FastifyReply) => String(reply.getHeader("content-type") ?? "").startsWith("text/html");

/**
 * Helmet's headers, HSTS only behind an https PUBLIC_URL, and our CSP. Only an HTML page can
 * embed anything, so only HTML answers read the embedded pages' origins (from settings).
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: { publicUrl?: string; embeddedPages(): Promise<(string | undefined)[]> },
): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    hsts: isHttps(options.publicUrl) ? { maxAge: 15_552_000, includeSubDomains: true } : false,
  });
  app.addHook("onSend", async (request: FastifyRequest, reply: FastifyReply) => {
    const pages = isHtml(reply) ? await options.embeddedPages().catch(() => []) : [];
    const frameOrigins = [...new Set(pages.map(originOf).filter((o): o is string => !!o))];
    reply.header(
      "content-security-policy",
      contentSecurityPolicy({ publicUrl: options.publicUrl, requestHost: request.headers.host, frameOrigins }),
    );
  });
}
