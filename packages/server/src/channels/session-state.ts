import type { FastifyBaseLogger } from "fastify";
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
  const chains = new Map<number, Promise<void>>();
  const report = (id: number, state: ConnectionState): Promise<void> => {
    const next = (chains.get(id) ?? Promise.resolve())
      .then(() => onState(id, state))
      .catch((error) => logger.error({ err: error, whatsappId: id }, "could not persist connection state"));
    chains.set(id, next);
    void next.then(() => {
      if (chains.get(id) === next) chains.delete(id);
    });
    return next;
  };
  /** Resolves once everything reported so far for the connection is persisted. */
  const settled = (id: number) => chains.get(id) ?? Promise.resolve();
  return { report, settled };
}
