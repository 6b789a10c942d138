/**
 * Realtime fan-out (issue 10): N agents' sockets connected, then one inbound message at a time
 * through the simulator API; for each message, the time from sending it until each socket has its
 * `appMessage` event. The sockets live in the runner's process (as browsers would, elsewhere), so the
 * server's figure is the server's own.
 */
import { io, type Socket } from "socket.io-client";
import { call, target } from "./load.js";
import { type Summary, summarize } from "./stats.js";

export interface FanoutOptions {
  port: number;
  whatsappId: number;
  adminToken: string;
  /** Tokens of agents who see the ingest connection's queue; sockets take them in turn. */
  agentTokens: string[];
  sockets: number;
  messages: number;
  /** Distinguishes the customers of one run from another's. */
  numberPrefix: string;
}

/**
 * `stored`: p50/p99 of the simulator's HTTP answer, which comes once the message is committed and
 * its events published; the delivery latency minus this is the fan-out itself.
 */
export type FanoutResult = Summary & { sockets: number; messages: number; stored: { p50: number; p99: number } };

function connect(port: number, token: string): Promise<Socket> {
  const socket = io(`http://127.0.0.1:${port}`, {
    auth: { token },
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
  });
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", reject);
  });
}

export async function runFanout(options: FanoutOptions): Promise<FanoutResult> {
  const sockets: Socket[] = [];
  try {
    // Connect in small groups: a thundering herd of handshakes is not what this measures.
    for (let i = 0; i < options.sockets; i += 25) {
      const group = Array.from({ length: Math.min(25, options.sockets - i) }, (_, k) =>
        connect(options.port, options.agentTokens[(i + k) % options.agentTokens.length]),
      );
      sockets.push(...(await Promise.all(group)));
    }
    const http = target(options.port, 1);
    const latencies: number[] = [];
    const answered: number[] = [];
    let errors = 0;
    const began = performance.now();
    for (let m = 0; m < options.messages; m++) {
      const body = `fanout ${options.numberPrefix} ${m}`;
      let sentAt = 0;
      const arrivals = sockets.map(
        (socket) =>
          new Promise<void>((resolve) => {
            const onMessage = (payload: { action: string; message?: { body?: string } }) => {
              if (payload.action !== "create" || payload.message?.body !== body) return;
              latencies.push(performance.now() - sentAt);
              socket.off("appMessage", onMessage);
              resolve();
            };
            socket.on("appMessage", onMessage);
          }),
      );
      sentAt = performance.now();
      const from = `${options.numberPrefix}${String(m).padStart(6, "0")}`;
      const res = await call(http, "POST", `/api/simulator/${options.whatsappId}/inbound`, options.adminToken, { from, body });
      answered.push(performance.now() - sentAt);
      if (res.status !== 200) {
        errors++;
        continue;
      }
      const timeout = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), 30_000).unref());
      if ((await Promise.race([Promise.all(arrivals), timeout])) === "timeout") errors++;
    }
    http.agent.destroy();
    const stored = summarize(answered, 0, 1);
    return {
      ...summarize(latencies, errors, (performance.now() - began) / 1000),
      stored: { p50: stored.p50, p99: stored.p99 },
      sockets: sockets.length,
      messages: options.messages,
    };
  } finally {
    for (const socket of sockets) socket.disconnect();
  }
}
