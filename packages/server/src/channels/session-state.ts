import type { FastifyBaseLogger } from "fastify";
import { createKeyedSerial } from "../lib/keyed-serial.js";
import type { ConnectionState } from "./session-types.js";

/**
 * Persists a connection's states one after the other: the channel reports synchronously while
 * the connections service writes asynchronously, and a late "qrcode" must never overwrite
 * "CONNECTED".
 */
export function createStateReporter(
  onState: (whatsappId: number, state: ConnectionState) => Promise<void>,
  logger: FastifyBaseLogger,
) {
  const writes = createKeyedSerial<number>();
  const report = (id: number, state: ConnectionState): Promise<void> =>
    writes
      .run(id, () => onState(id, state))
      .catch((error) => logger.error({ err: error, whatsappId: id }, "could not persist connection state"));
  /** Resolves once everything reported so far for the connection is persisted. */
  const settled = (id: number) => writes.settled(id);
  return { report, settled };
}
