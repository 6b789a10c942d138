import { configOrExit, startServer } from "./server.js";

startServer(configOrExit()).catch((error) => {
  console.error(error);
  process.exit(1);
});
