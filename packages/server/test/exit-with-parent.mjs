/**
 * Loaded first (`node --import`) by the processes the tests start: `npm start`'s server, the CLIs
 * (server-bundle.ts) and the browser journeys' server (e2e/support/global-setup.ts). A run stopped
 * by a signal ends the test processes, not what they started; such a process, its parent gone, is
 * sent SIGTERM once and stops as `npm start` does on it, its embedded PostgreSQL with it. Before,
 * it kept running and listening after the run.
 */
const parent = process.ppid;
const watch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(watch);
  process.kill(process.pid, "SIGTERM");
}, 500);
watch.unref();
