import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { Config } from "../packages/server/src/config.js";
import { generateVapidKeys } from "../packages/server/src/modules/push/vapid.js";

/**
 * The server's configuration for a bench run: production mode, fresh secrets, no request log (the
 * figures are the application's, not pino's), no web build, limits the load never trips, and a
 * Graph API address nothing listens on.
 */
export function benchConfig(dataDir: string, databaseUrl: string | undefined): Config {
  return {
    env: "production",
    port: 0,
    host: "127.0.0.1",
    dataDir,
    databaseUrl,
    jwtSecret: randomBytes(32).toString("hex"),
    jwtRefreshSecret: randomBytes(32).toString("hex"),
    adminEmail: "admin@bench.test",
    adminName: "Bench admin",
    logLevel: "silent",
    webDist: join(dataDir, "no-web"),
    rateLimit: { windowMs: 60_000, perIp: 1_000, perEmail: 1_000 },
    encryptionKey: randomBytes(32).toString("hex"),
    graphUrl: "http://127.0.0.1:9/v25.0",
    mediaMaxBytes: 64 * 1024 * 1024,
    // BENCH_PUSH=1: web push configured, so every inbound message also asks who has push on
    // (nobody in the bench's data: the lookup's cost, not deliveries).
    ...(process.env.BENCH_PUSH === "1" ? { vapid: { ...generateVapidKeys(), subject: "mailto:admin@bench.test" } } : {}),
  };
}
