// The whole suite against a real PostgreSQL (fresh databases per run) and Redis.
import { spawnSync } from "node:child_process";

const env = {
  ...process.env,
  TEST_DATABASE_URL: process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  TEST_REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
};
const result = spawnSync("npx", ["vitest", "run", ...process.argv.slice(2)], { stdio: "inherit", env });
process.exit(result.status ?? 1);
