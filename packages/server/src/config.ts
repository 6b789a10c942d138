import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { GRAPH_DEFAULT_URL } from "./channels/cloud/graph-version.js";
import type { S3StorageOptions } from "./media/s3-storage.js";

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: optionalText.pipe(z.url({ protocol: /^postgres(ql)?$/, error: "a postgres:// or postgresql:// URL" }).optional()),
  EMBEDDED_PG_MEMORY_MB: optionalText.pipe(z.coerce.number<string | undefined>().int().min(256).max(4_194_304).optional()),
  REDIS_URL: optionalText.pipe(z.url({ protocol: /^rediss?$/, error: "a redis:// or rediss:// URL" }).optional()),
  JWT_SECRET: optionalText.pipe(z.string().min(32, "at least 32 characters").optional()),
  JWT_REFRESH_SECRET: optionalText.pipe(z.string().min(32, "at least 32 characters").optional()),
  ADMIN_EMAIL: z.email("an email address").default("admin@zapdesk.local"),
  ADMIN_PASSWORD: optionalText.pipe(z.string().min(5, "at least 5 characters").max(50).optional()),
  ADMIN_NAME: z.string().min(2).max(50).default("Administrator"),
  PUBLIC_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: "an http(s) URL" }).optional()),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  WEB_DIST: optionalText,
  ENCRYPTION_KEY: optionalText.pipe(z.string().min(32, "at least 32 characters").optional()),
  WHATSAPP_GRAPH_URL: z
    .url({ protocol: /^https?$/, error: "an http(s) URL including the version, e.g. https://graph.facebook.com/v25.0" })
    .default(GRAPH_DEFAULT_URL)
    .transform((v) => v.replace(/\/+$/, "")),
  WHATSAPP_GRAPH_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(20_000),
  WHATSAPP_GRAPH_MEDIA_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(120_000),
  WHATSAPP_MEDIA_MAX_MB: z.coerce.number().int().min(1).max(2048).default(64),
  WHATSAPP_WEB_URL: optionalText.pipe(z.url({ protocol: /^wss?$/, error: "a ws:// or wss:// URL" }).optional()),
  MEDIA_STORAGE: z.enum(["local", "s3"], { error: "local or s3" }).default("local"),
  S3_BUCKET: optionalText.pipe(z.string().min(3, "a bucket name").max(63).optional()),
  S3_ENDPOINT: optionalText.pipe(z.url({ protocol: /^https?$/, error: "an http(s) URL" }).optional()),
  S3_REGION: z.string().trim().min(1).default("us-east-1"),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: z.enum(["true", "false"], { error: "true or false" }).default("false"),
  VAPID_PUBLIC_KEY: optionalText.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{87}$/, "a base64url P-256 public key")
      .optional(),
  ),
  VAPID_PRIVATE_KEY: optionalText.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, "a base64url P-256 private key")
      .optional(),
  ),
  VAPID_SUBJECT: optionalText.pipe(
    z
      .string()
      .regex(/^(mailto:|https:\/\/)\S+$/, "a mailto: or https:// URL")
      .optional(),
  ),
  TRUST_PROXY: optionalText.pipe(
    z
      .string()
      .regex(/^(true|false|\d{1,2}|[\w.:/,\s-]+)$/, "true, false, a hop count or a comma-separated list of proxy addresses")
      .optional(),
  ),
});

/**
 * Which X-Forwarded-For hops to believe (Fastify's `trustProxy`). Believing every hop
 * lets any client pick its own address and walk past the per-IP login limit.
 */
export function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .join(",");
}

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env["NODE_ENV"];
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** The memory the embedded PostgreSQL sizes itself to (db/embedded/memory.ts); default the machine's or its container's. */
  embeddedMemoryBytes?: number;
  redisUrl?: string;
  jwtSecret: string;
  jwtRefreshSecret: string;
  adminEmail: string;
  adminPassword?: string;
  adminName: string;
  publicUrl?: string;
  logLevel: Env["LOG_LEVEL"];
  webDist?: string;
  /** For Fastify's `trustProxy`: false (the default) unless TRUST_PROXY says which proxies to believe. */
  trustProxy?: boolean | number | string;
  /** Key of the secrets stored encrypted in the database (Cloud API tokens). */
  encryptionKey: string;
  /** Meta's Graph API base, version included (tests and staging point it at a local fake). */
  graphUrl: string;
  /**
   * How long a Graph call may take (a send whose answer does not come in time is an unknown
   * outcome, never resent), and a media upload or download (files take longer). Defaults 20 s / 120 s.
   */
  graphTimeouts?: { callMs: number; mediaMs: number };
  /** Largest inbound WhatsApp media downloaded, in bytes. */
  mediaMaxBytes: number;
  /** The WhatsApp Web WebSocket QR connections open; Baileys' own (web.whatsapp.com) when unset. */
  whatsappWebUrl?: string;
  /** Where media lives; absent means the local folder DATA_DIR/media (the embedded default). */
  mediaStorage?: MediaStorageConfig;
  /**
   * Failed logins allowed per window per IP, and per email from one IP, before waits start
   * (successes never count); signup attempts per window per IP and per email; requests per
   * minute per IP to the API token endpoint.
   */
  rateLimit: { windowMs: number; perIp: number; perEmail: number; apiSendPerMinute?: number };
  /**
   * Issue 13: the VAPID keys web push is signed with. Given by VAPID_* in production; otherwise
   * generated into DATA_DIR on first start (modules/push/vapid.ts). No keys in production: no push.
   */
  vapid?: { publicKey?: string; privateKey?: string; subject?: string };
}

export type MediaStorageConfig = { kind: "local" } | ({ kind: "s3" } & S3StorageOptions);

export class ConfigError extends Error {}

/** Parse the environment; a bad value names the variable and what it expects. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  // `PORT=` in a compose file means "unset", not port 0.
  const given = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ""));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: expected ${issue.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

/**
 * Embedded mode keeps generated JWT secrets in DATA_DIR so tokens survive a
 * restart; production must be given them explicitly.
 */
function resolveSecret(name: string, given: string | undefined, env: Env, dataDir: string): string {
  if (given) return given;
  if (env.NODE_ENV === "production") {
    throw new ConfigError(`${name} is required when NODE_ENV=production (a random string of at least 32 characters).`);
  }
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, `.${name.toLowerCase()}`);
  try {
    const stored = readFileSync(file, "utf8").trim();
    if (stored.length >= 32) return stored;
  } catch {
    // first start: generate below
  }
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** MEDIA_STORAGE=s3 needs a bucket, and the two keys go together (neither: the SDK's default chain). */
function mediaStorageOf(env: Env): MediaStorageConfig {
  if (env.MEDIA_STORAGE === "local") return { kind: "local" };
  if (!env.S3_BUCKET) throw new ConfigError("S3_BUCKET is required when MEDIA_STORAGE=s3.");
  const { S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = env;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new ConfigError("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together, or neither (the AWS default chain).");
  }
  return {
    kind: "s3",
    bucket: env.S3_BUCKET,
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: env.S3_FORCE_PATH_STYLE === "true",
  };
}

/** The two VAPID keys go together; the subject alone may be set (the keys then come from DATA_DIR). */
function vapidOf(env: Env): Config["vapid"] {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey, VAPID_SUBJECT: subject } = env;
  if (Boolean(publicKey) !== Boolean(privateKey)) {
    throw new ConfigError("VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together, or neither.");
  }
  return { publicKey, privateKey, subject };
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const env = parseEnv(source);
  const dataDir = resolve(env.DATA_DIR);
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    embeddedMemoryBytes: env.EMBEDDED_PG_MEMORY_MB === undefined ? undefined : env.EMBEDDED_PG_MEMORY_MB * 1024 * 1024,
    redisUrl: env.REDIS_URL,
    jwtSecret: resolveSecret("JWT_SECRET", env.JWT_SECRET, env, dataDir),
    jwtRefreshSecret: resolveSecret("JWT_REFRESH_SECRET", env.JWT_REFRESH_SECRET, env, dataDir),
    adminEmail: env.ADMIN_EMAIL.toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD,
    adminName: env.ADMIN_NAME,
    publicUrl: env.PUBLIC_URL,
    logLevel: env.LOG_LEVEL,
    webDist: env.WEB_DIST,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    encryptionKey: resolveSecret("ENCRYPTION_KEY", env.ENCRYPTION_KEY, env, dataDir),
    graphUrl: env.WHATSAPP_GRAPH_URL,
    graphTimeouts: { callMs: env.WHATSAPP_GRAPH_TIMEOUT_MS, mediaMs: env.WHATSAPP_GRAPH_MEDIA_TIMEOUT_MS },
    mediaMaxBytes: env.WHATSAPP_MEDIA_MAX_MB * 1024 * 1024,
    whatsappWebUrl: env.WHATSAPP_WEB_URL,
    mediaStorage: mediaStorageOf(env),
    rateLimit: { windowMs: 15 * 60 * 1000, perIp: 100, perEmail: 10 },
    vapid: vapidOf(env),
  };
}
