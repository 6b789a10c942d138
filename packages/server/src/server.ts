import { type AppHandle, buildApp } from "./app.js";
import { type Config, ConfigError, loadConfig } from "./config.js";
import { type Database, openDatabase } from "./db/client.js";
import { migrate } from "./db/migrate.js";
import { seed } from "./db/seed.js";

export interface RunningServer extends AppHandle {
  config: Config;
  database: Database;
}

/** Read the config or exit with the message that names the bad variable. */
export function configOrExit(source: Record<string, string | undefined> = process.env): Config {
  try {
    return loadConfig(source);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** Lines before the app's logger exists (the embedded server starting, PGlite moved over), at info level. */
function startupLog(config: Config): (message: string) => void {
  const quiet = ["silent", "fatal", "error", "warn"].includes(config.logLevel);
  return (message) => {
    if (!quiet) console.log(JSON.stringify({ level: 30, time: Date.now(), msg: message }));
  };
}

function listeningPort(address: ReturnType<AppHandle["app"]["server"]["address"]>): number | undefined {
  return typeof address === "object" && address ? address.port : undefined;
}

/** Open the database, migrate, seed, listen, start sessions; stop cleanly on SIGINT/SIGTERM. */
export async function startServer(config: Config): Promise<RunningServer> {
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    embedded: { log: startupLog(config), memoryBytes: config.embeddedMemoryBytes },
  });
  const applied = await migrate(database);
  const seeded = await seed(database.db, { email: config.adminEmail, password: config.adminPassword, name: config.adminName });

  const handle = await buildApp({ config, database });
  const { app } = handle;
  if (applied.length) app.log.info({ applied }, "migrations applied");
  if (seeded.adminCreated) {
    app.log.info({ email: config.adminEmail }, "administrator created");
    if (seeded.generatedAdminPassword) {
      // Printed once, on purpose: the only way to learn a generated password.
      console.log(`\n  Administrator: ${config.adminEmail}\n  Password:      ${seeded.generatedAdminPassword}\n`);
    }
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 10000);
    force.unref();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ port: config.port, host: config.host });
  database.embedded?.announce({ httpPort: listeningPort(app.server.address()) ?? config.port });
  await handle.start();
  app.log.info(
    {
      mode: config.databaseUrl ? (config.redisUrl ? "scaled-out" : "postgres") : "embedded",
      ...(database.embedded ? { postgres: database.embedded.pgdata, postgresPid: database.embedded.postmasterPid } : {}),
    },
    `Zapdesk listening on http://localhost:${config.port}`,
  );
  return { ...handle, config, database };
}
