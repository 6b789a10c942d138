/**
 * Work run one after another per key (different keys run side by side). A failure is the caller's
 * to handle and never stops the work queued after it.
 */
export function createKeyedSerial<K>() {
  const chains = new Map<K, Promise<unknown>>();
  return {
    run<T>(key: K, work: () => Promise<T>): Promise<T> {
      const run = () => work();
      // After the previous work, whether it succeeded or failed (one tick, like a plain .then).
      const next = (chains.get(key) ?? Promise.resolve()).then(run, run);
      chains.set(key, next);
      void next
        .catch(() => {})
        .finally(() => {
          if (chains.get(key) === next) chains.delete(key);
        });
      return next;
    },
    /** Resolves once everything queued so far for the key has run. */
    async settled(key: K): Promise<void> {
      await chains.get(key)?.catch(() => {});
    },
    /** Resolves once everything queued so far, for every key, has run. */
    async idle(): Promise<void> {
      await Promise.allSettled([...chains.values()]);
    },
  };
}
