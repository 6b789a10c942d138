/** After this many failed attempts an event stops being replayed (kept as "failed" for inspection). */
export const MAX_ATTEMPTS = 5;

export interface LoggedEvent {
  id: number;
  kind: string;
  payload: unknown;
  attempts: number;
}

/**
 * One connection's view of the durable inbound log (nothing lost across a crash). A channel
 * records each event as it arrives, before any other work; once the pipeline has stored it the
 * row is marked done. Rows still pending at the next start are processed first.
 */
export interface InboundLog {
  /** Write a received event (JSON-safe); undefined when an event with the same key is already logged. */
  record(kind: string, key: string | null, payload: unknown): Promise<number | undefined>;
  /**
   * Write several events received together in one statement; one id per event, in order,
   * undefined for an event whose key is already logged (or repeated earlier in the list).
   */
  recordAll(kind: string, events: { key: string; payload: unknown }[]): Promise<(number | undefined)[]>;
  done(id: number): Promise<void>;
  /** Mark several events done in one statement. */
  doneAll(ids: number[]): Promise<void>;
  /** Count a failed attempt; after MAX_ATTEMPTS the event is set aside as failed. */
  failed(id: number, error: unknown): Promise<void>;
  /**
   * Unfinished events of the connection, oldest first; `retriesOnly`: those that already failed
   * once; `afterId`: only those logged after that one (the next page).
   */
  pending(limit?: number, options?: { retriesOnly?: boolean; afterId?: number }): Promise<LoggedEvent[]>;
}
