// Development: the API with reload on change, and Vite with /api proxied to it.
import { spawn } from "node:child_process";

const children = [
  spawn("npx", ["tsx", "watch", "packages/server/src/main.ts"], { stdio: "inherit", env: process.env }),
  spawn("npm", ["run", "dev", "--workspace", "@zapdesk/web"], { stdio: "inherit", env: process.env }),
];
const stop = () => {
  for (const child of children) child.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const child of children) child.on("exit", (code) => code && process.exit(code));
