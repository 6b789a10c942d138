import { EmbeddedUnavailableError } from "./db/embedded/binaries.js";
import { DataDirInUseError } from "./db/embedded/embedded-postgres.js";
import { configOrExit, startServer } from "./server.js";

startServer(configOrExit()).catch((error) => {
  // A folder in use or a platform without binaries: the message says what to do, a stack would not.
  console.error(error instanceof DataDirInUseError || error instanceof EmbeddedUnavailableError ? error.message : error);
  process.exit(1);
});
