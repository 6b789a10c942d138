/**
 * A background job's loop (the schedule sweeper, the menus' timeouts, the automation rules' worker):
 * `run` never runs twice at once in a process. An explicit `run()` while one is under way waits for
 * it and runs again (what the caller asked for may have arrived meanwhile); a timer tick or a
 * `notify()` while one is under way is skipped. `stop()` waits for the run under way.
 */
export function createJobLoop<T>(
  job: () => Promise<T>,
  options: { pollMs: number; logger: { error(details: object, message: string): void }; failed: string },
) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<T> | undefined;

  function run(): Promise<T> {
    if (running) return running.then(() => run());
    running = job().finally(() => {
      running = undefined;
    });
    return running;
  }

  const tick = () => {
    if (!running) run().catch((error) => options.logger.error({ err: error }, options.failed));
  };

  return {
    run,
    /** Something to do now: run at once (while started) unless a run is under way. */
    notify() {
      if (timer) tick();
    },
    start() {
      if (timer) return;
      timer = setInterval(tick, options.pollMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      if (running) await running.catch(() => {});
    },
  };
}
