/** A small semaphore: at most `limit` tasks run at once, the rest wait in order. */
export function createTaskLimiter(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const inflight = new Set<Promise<void>>();
  const next = () => {
    running -= 1;
    waiting.shift()?.();
  };
  return {
    run(task: () => Promise<void>) {
      const job = (async () => {
        if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
        running += 1;
        try {
          await task();
        } finally {
          next();
        }
      })();
      inflight.add(job);
      void job.finally(() => inflight.delete(job));
    },
    async idle() {
      while (inflight.size) await Promise.allSettled([...inflight]);
    },
  };
}
