import { bodyPicker, buildCorpus } from "./corpus.js";
import { closedLoop, type Summary, summarize } from "./stats.js";

export interface IngestOptions {
  /** Customers writing at the same time; each sends its burst concurrently, then the next customer starts. */
  parallelContacts: number;
  burst: number;
  maxMessages: number;
  maxSeconds: number;
  /** Digits that make this run's customer numbers unique (numbers are `prefix` + a counter). */
  numberPrefix: string;
}

export type SendInbound = (input: { from: string; name: string; body: string; id: string }) => Promise<void>;

export interface IngestResult extends Summary {
  contacts: number;
}

/**
 * Closed-loop ingest: `parallelContacts` workers, each takes a new customer and delivers a burst of
 * `burst` messages for it at once (the pipeline serialises them on the contact row), waits for all
 * of them, and moves on. Latency is per message, from delivery to stored (and announced).
 */
export async function runIngest(send: SendInbound, options: IngestOptions): Promise<IngestResult> {
  const nextBody = bodyPicker(buildCorpus(), Number(options.numberPrefix));
  const latencies: number[] = [];
  let errors = 0;
  let reserved = 0;
  let contacts = 0;
  let firstError: unknown;
  const started = performance.now();
  const deadline = started + options.maxSeconds * 1000;

  await closedLoop(
    options.parallelContacts,
    () => reserved >= options.maxMessages || performance.now() >= deadline,
    async () => {
      reserved += options.burst;
      contacts += 1;
      const from = `${options.numberPrefix}${String(contacts).padStart(8, "0")}`;
      await Promise.all(
        Array.from({ length: options.burst }, async (_, k) => {
          const begin = performance.now();
          try {
            await send({ from, name: `Customer ${contacts}`, body: nextBody(), id: `ingest-${from}-${k}` });
            latencies.push(performance.now() - begin);
          } catch (error) {
            errors += 1;
            firstError ??= error;
          }
        }),
      );
    },
  );
  if (firstError) console.error("first ingest error:", firstError);
  return { ...summarize(latencies, errors, (performance.now() - started) / 1000), contacts };
}
