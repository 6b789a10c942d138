/**
 * One connection's inbound messages, in arrival order, written in small batches: consecutive
 * batchable items (up to `maxBatch`) go through `runBatch` together, any other item runs alone
 * through `runOne` with a batch boundary before and after it. While a batch is being written the
 * next one fills up (group commit), so a quiet connection writes each message at once and a busy
 * one writes many per transaction. Each caller's promise settles only once its own item is stored
 * (its batch committed), which is when the source may be acknowledged.
 */
export interface BatchQueueOptions<T, R> {
  maxBatch: number;
  /** Whether `item` may join a batch of the connection `key` now. */
  batchable(item: T, key: number): boolean;
  /** Items of one chat keep their order when a batch falls back to one at a time. */
  chatOf(item: T): string;
  /** One result per item, in order; a throw sends every item of the batch through `runOne` (each chat in order). */
  runBatch(key: number, items: T[]): Promise<R[]>;
  runOne(key: number, item: T): Promise<R>;
  onBatchFailed?(error: unknown, size: number, key: number): void;
}

interface Waiting<T, R> {
  item: T;
  resolve(value: R): void;
  reject(error: unknown): void;
}

export function createBatchQueue<T, R>(options: BatchQueueOptions<T, R>) {
  const queues = new Map<number, Waiting<T, R>[]>();
  const draining = new Map<number, Promise<void>>();

  async function runAlone(key: number, waiting: Waiting<T, R>) {
    try {
      waiting.resolve(await options.runOne(key, waiting.item));
    } catch (error) {
      waiting.reject(error);
    }
  }

  async function runGroup(key: number, group: Waiting<T, R>[]) {
    let results: R[];
    try {
      results = await options.runBatch(
        key,
        group.map((w) => w.item),
      );
    } catch (error) {
      // Nothing of the batch was written: each item takes the one-message path, so a bad row only fails itself.
      options.onBatchFailed?.(error, group.length, key);
      // Chats side by side (as before batching), each chat's messages in order.
      const chats = new Map<string, Waiting<T, R>[]>();
      for (const waiting of group) {
        const chat = options.chatOf(waiting.item);
        chats.set(chat, [...(chats.get(chat) ?? []), waiting]);
      }
      await Promise.all(
        [...chats.values()].map(async (messages) => {
          for (const waiting of messages) await runAlone(key, waiting);
        }),
      );
      return;
    }
    for (const [i, waiting] of group.entries()) waiting.resolve(results[i]);
  }

  async function drain(key: number) {
    // Let the calls made in the same tick join the first batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const queue = queues.get(key) ?? [];
    while (queue.length > 0) {
      const head = queue[0];
      if (!options.batchable(head.item, key)) {
        queue.shift();
        await runAlone(key, head);
        continue;
      }
      let size = 1;
      while (size < queue.length && size < options.maxBatch && options.batchable(queue[size].item, key)) size += 1;
      await runGroup(key, queue.splice(0, size));
    }
    queues.delete(key);
    draining.delete(key);
  }

  return {
    push(key: number, item: T): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        let queue = queues.get(key);
        if (!queue) {
          queue = [];
          queues.set(key, queue);
        }
        queue.push({ item, resolve, reject });
        if (!draining.has(key)) draining.set(key, drain(key));
      });
    },
    /** Resolves once everything pushed so far has been written (tests, shutdown). */
    async idle(): Promise<void> {
      while (draining.size) await Promise.allSettled([...draining.values()]);
    },
  };
}
