import { closeSync, existsSync, fdatasyncSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { InboundLog } from "./inbound-log.js";

/** An event a channel received while the inbound log (the database) could not be written. */
export interface SpooledEvent {
  kind: string;
  key: string | null;
  payload: unknown;
}

/** Past this size on disk a connection's spool takes nothing more (an outage that long is an operator's matter). */
export const SPOOL_MAX_BYTES = 128 * 1024 * 1024;

export class SpoolFull extends Error {
  constructor(file: string) {
    super(`the inbound spool ${file} is full`);
    this.name = "SpoolFull";
  }
}

/**
 * Issue 19: WhatsApp Web tells the sender a message was delivered before Zapdesk stores it, so
 * what a QR connection receives while the database is unreachable must not wait in memory. It is
 * appended to a file of the connection's own (JSON lines, flushed to disk before the call
 * returns), in arrival order, and moved into the inbound log once the database answers again.
 * The file outlives a restart: a spool left by a process that stopped during the outage is moved
 * at the next start.
 */
export interface InboundSpool {
  /** Events waiting on disk. */
  size(): number;
  append(events: SpooledEvent[]): void;
  /**
   * Record everything waiting into the log, in order (the log ignores a key it already holds, so a
   * move cut short is simply done again), then empty the file. Throws while the log cannot be written.
   */
  drain(log: InboundLog): Promise<number>;
}

export function createInboundSpool(file: string, options: { maxBytes?: number } = {}): InboundSpool {
  const maxBytes = options.maxBytes ?? SPOOL_MAX_BYTES;
  let bytes = 0;
  let count = 0;

  /** The complete lines of the file; a line cut short by a crash mid-write is the only one that can fail to parse. */
  function read(): SpooledEvent[] {
    if (!existsSync(file)) return [];
    const events: SpooledEvent[] = [];
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (!line) continue;
      try {
        events.push(JSON.parse(line) as SpooledEvent);
      } catch {
        // A torn last line: its event was never confirmed written, so its caller processed it as lost.
      }
    }
    return events;
  }

  if (existsSync(file)) {
    bytes = readFileSync(file).length;
    count = read().length;
  }

  return {
    size: () => count,
    append(events) {
      if (events.length === 0) return;
      const text = events.map((event) => `${JSON.stringify(event)}\n`).join("");
      const length = Buffer.byteLength(text);
      if (bytes + length > maxBytes) throw new SpoolFull(file);
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      const fd = openSync(file, "a", 0o600);
      try {
        writeSync(fd, text);
        fdatasyncSync(fd);
      } finally {
        closeSync(fd);
      }
      bytes += length;
      count += events.length;
    },
    async drain(log) {
      const events = read();
      let next = 0;
      while (next < events.length) {
        // Consecutive keyed events of one kind go in one statement, as they were received.
        const kind = events[next].kind;
        let end = next;
        while (end < events.length && events[end].kind === kind && events[end].key !== null) end += 1;
        if (end === next) {
          await log.record(kind, null, events[next].payload);
          next += 1;
          continue;
        }
        await log.recordAll(
          kind,
          events.slice(next, end).map((e) => ({ key: e.key as string, payload: e.payload })),
        );
        next = end;
      }
      rmSync(file, { force: true });
      bytes = 0;
      count = 0;
      return events.length;
    },
  };
}
