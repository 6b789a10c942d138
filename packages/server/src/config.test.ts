import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig, parseEnv, parseTrustProxy } from "./config.js";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-config-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function configError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("parseEnv", () => {
  it("applies the defaults", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ PORT: 8080, DATA_DIR: "./data", NODE_ENV: "development", LOG_LEVEL: "info" });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.REDIS_URL).toBeUndefined();
  });

  it("treats empty variables as unset", () => {
    const env = parseEnv({ PORT: "", DATABASE_URL: "", REDIS_URL: " ", JWT_SECRET: "", LOG_LEVEL: "" });
    expect(env.PORT).toBe(8080);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.REDIS_URL).toBeUndefined();
    expect(env.JWT_SECRET).toBeUndefined();
    expect(env.LOG_LEVEL).toBe("info");
  });

  it("names the variable and what it expects for a bad PORT", () => {
    for (const port of ["abc", "70000", "-1", "80.5"]) {
      const message = configError(() => parseEnv({ PORT: port }));
      expect(message, port).toMatch(/^Invalid environment:\n\s+PORT: expected /m);
    }
  });

  it("names DATABASE_URL and REDIS_URL with the scheme they need", () => {
    expect(configError(() => parseEnv({ DATABASE_URL: "mysql://db/zapdesk" }))).toContain(
      "DATABASE_URL: expected a postgres:// or postgresql:// URL",
    );
    expect(configError(() => parseEnv({ DATABASE_URL: "not a url" }))).toContain("DATABASE_URL: expected");
    expect(configError(() => parseEnv({ REDIS_URL: "http://cache" }))).toContain(
      "REDIS_URL: expected a redis:// or rediss:// URL",
    );
    expect(parseEnv({ DATABASE_URL: "postgresql://u:p@db:5432/z", REDIS_URL: "rediss://cache:6380" })).toMatchObject({
      DATABASE_URL: "postgresql://u:p@db:5432/z",
      REDIS_URL: "rediss://cache:6380",
    });
  });

  it("takes a ws:// or wss:// WHATSAPP_WEB_URL, and none by default (Baileys' own)", () => {
    expect(parseEnv({}).WHATSAPP_WEB_URL).toBeUndefined();
    expect(parseEnv({ WHATSAPP_WEB_URL: "ws://127.0.0.1:9/ws/chat" }).WHATSAPP_WEB_URL).toBe("ws://127.0.0.1:9/ws/chat");
    expect(configError(() => parseEnv({ WHATSAPP_WEB_URL: "https://web.whatsapp.com" }))).toContain(
      "WHATSAPP_WEB_URL: expected a ws:// or wss:// URL",
    );
  });

  it("takes EMBEDDED_PG_MEMORY_MB as a whole number of megabytes, and none by default (the machine's memory)", () => {
    expect(parseEnv({}).EMBEDDED_PG_MEMORY_MB).toBeUndefined();
    expect(parseEnv({ EMBEDDED_PG_MEMORY_MB: "" }).EMBEDDED_PG_MEMORY_MB).toBeUndefined();
    expect(parseEnv({ EMBEDDED_PG_MEMORY_MB: "2048" }).EMBEDDED_PG_MEMORY_MB).toBe(2048);
    expect(loadConfig({ EMBEDDED_PG_MEMORY_MB: "2048", DATA_DIR: tempDir() }).embeddedMemoryBytes).toBe(2048 * 1024 * 1024);
    for (const bad of ["lots", "1.5", "100"])
      expect(configError(() => parseEnv({ EMBEDDED_PG_MEMORY_MB: bad }))).toContain("EMBEDDED_PG_MEMORY_MB: expected");
  });

  it("lists every bad variable at once", () => {
    const message = configError(() =>
      parseEnv({ PORT: "x", ADMIN_EMAIL: "nope", JWT_SECRET: "short", NODE_ENV: "staging", PUBLIC_URL: "ftp://x" }),
    );
    for (const name of ["PORT", "ADMIN_EMAIL", "JWT_SECRET", "NODE_ENV", "PUBLIC_URL"])
      expect(message).toContain(`${name}: expected`);
    expect(message).toContain("JWT_SECRET: expected at least 32 characters");
  });
});

describe("loadConfig", () => {
  const secret = "s".repeat(40);

  it("stops in production without JWT secrets, with a clear message, writing nothing", () => {
    const dir = tempDir();
    expect(configError(() => loadConfig({ NODE_ENV: "production", DATA_DIR: dir }))).toMatch(
      /JWT_SECRET is required when NODE_ENV=production/,
    );
    expect(configError(() => loadConfig({ NODE_ENV: "production", DATA_DIR: dir, JWT_SECRET: secret }))).toMatch(
      /JWT_REFRESH_SECRET is required when NODE_ENV=production/,
    );
    const jwt = { NODE_ENV: "production", DATA_DIR: dir, JWT_SECRET: secret, JWT_REFRESH_SECRET: `r${secret}` };
    // Cloud API tokens are encrypted with it: a generated key per process would not open another's.
    expect(configError(() => loadConfig(jwt))).toMatch(/ENCRYPTION_KEY is required when NODE_ENV=production/);
    expect(() => statSync(join(dir, ".jwt_secret"))).toThrow();
    expect(() => statSync(join(dir, ".encryption_key"))).toThrow();
    const config = loadConfig({ ...jwt, ENCRYPTION_KEY: `e${secret}` });
    expect(config).toMatchObject({
      jwtSecret: secret,
      jwtRefreshSecret: `r${secret}`,
      encryptionKey: `e${secret}`,
      env: "production",
    });
  });

  it("generates the JWT secrets in DATA_DIR on first start and reuses them", () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(first.jwtRefreshSecret.length).toBeGreaterThanOrEqual(32);
    expect(first.jwtSecret).not.toBe(first.jwtRefreshSecret);
    expect(statSync(join(dir, ".jwt_secret")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, ".jwt_secret"), "utf8")).toBe(first.jwtSecret);

    const second = loadConfig({ DATA_DIR: dir });
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(second.jwtRefreshSecret).toBe(first.jwtRefreshSecret);

    const elsewhere = loadConfig({ DATA_DIR: tempDir() });
    expect(elsewhere.jwtSecret).not.toBe(first.jwtSecret);
  });

  it("prefers given secrets and replaces a damaged stored one", () => {
    const dir = tempDir();
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: secret }).jwtSecret).toBe(secret);
    writeFileSync(join(dir, ".jwt_refresh_secret"), "too-short");
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.jwtRefreshSecret).not.toBe("too-short");
    expect(config.jwtRefreshSecret.length).toBeGreaterThanOrEqual(32);
  });

  it("maps the environment to the config", () => {
    const dir = tempDir();
    const config = loadConfig({
      DATA_DIR: dir,
      PORT: "9000",
      ADMIN_EMAIL: "Boss@Example.com",
      ADMIN_PASSWORD: "secret",
      DATABASE_URL: "postgres://db/zapdesk",
      REDIS_URL: "redis://cache",
      PUBLIC_URL: "https://desk.example.com",
    });
    expect(config).toMatchObject({
      port: 9000,
      dataDir: dir,
      adminEmail: "boss@example.com",
      adminPassword: "secret",
      databaseUrl: "postgres://db/zapdesk",
      redisUrl: "redis://cache",
      publicUrl: "https://desk.example.com",
    });
  });
});

describe("TRUST_PROXY", () => {
  it("believes no forwarding header unless told which proxies to trust", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).trustProxy).toBe(false);
    expect(parseTrustProxy("true")).toBe(true);
    expect(parseTrustProxy("false")).toBe(false);
    expect(parseTrustProxy("1")).toBe(1);
    expect(parseTrustProxy("10.0.0.0/8, 127.0.0.1")).toBe("10.0.0.0/8,127.0.0.1");
    expect(loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: "loopback" }).trustProxy).toBe("loopback");
    expect(configError(() => parseEnv({ TRUST_PROXY: "<script>" }))).toContain("TRUST_PROXY: expected");
  });
});

describe("MEDIA_STORAGE", () => {
  it("keeps media in DATA_DIR/media unless told to use a bucket", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).mediaStorage).toEqual({ kind: "local" });
    expect(loadConfig({ DATA_DIR: tempDir(), MEDIA_STORAGE: "local", S3_BUCKET: "ignored" }).mediaStorage).toEqual({
      kind: "local",
    });
  });

  it("maps the S3 variables (MinIO: endpoint, path style, keys; AWS: region and the default credential chain)", () => {
    const minio = loadConfig({
      DATA_DIR: tempDir(),
      MEDIA_STORAGE: "s3",
      S3_BUCKET: "zapdesk-media",
      S3_ENDPOINT: "http://minio:9000",
      S3_ACCESS_KEY_ID: "zapdesk",
      S3_SECRET_ACCESS_KEY: "minio-secret",
      S3_FORCE_PATH_STYLE: "true",
    });
    expect(minio.mediaStorage).toEqual({
      kind: "s3",
      bucket: "zapdesk-media",
      region: "us-east-1",
      endpoint: "http://minio:9000",
      credentials: { accessKeyId: "zapdesk", secretAccessKey: "minio-secret" },
      forcePathStyle: true,
    });
    const aws = loadConfig({ DATA_DIR: tempDir(), MEDIA_STORAGE: "s3", S3_BUCKET: "acme-zapdesk", S3_REGION: "sa-east-1" });
    expect(aws.mediaStorage).toEqual({
      kind: "s3",
      bucket: "acme-zapdesk",
      region: "sa-east-1",
      endpoint: undefined,
      credentials: undefined,
      forcePathStyle: false,
    });
  });

  it("stops with a clear message on a missing bucket, half a key pair or a bad value", () => {
    expect(configError(() => loadConfig({ DATA_DIR: tempDir(), MEDIA_STORAGE: "s3" }))).toContain(
      "S3_BUCKET is required when MEDIA_STORAGE=s3",
    );
    expect(
      configError(() => loadConfig({ DATA_DIR: tempDir(), MEDIA_STORAGE: "s3", S3_BUCKET: "media", S3_ACCESS_KEY_ID: "id" })),
    ).toContain("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together");
    const bad = configError(() =>
      parseEnv({ MEDIA_STORAGE: "gcs", S3_ENDPOINT: "minio:9000", S3_FORCE_PATH_STYLE: "yes", S3_BUCKET: "x" }),
    );
    expect(bad).toContain("MEDIA_STORAGE: expected local or s3");
    expect(bad).toContain("S3_ENDPOINT: expected an http(s) URL");
    expect(bad).toContain("S3_FORCE_PATH_STYLE: expected true or false");
    expect(bad).toContain("S3_BUCKET: expected a bucket name");
  });
});
