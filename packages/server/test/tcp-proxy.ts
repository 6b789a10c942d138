import { connect, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP relay in front of a real server (PostgreSQL, Redis): `stop()` is the server going away for
 * the app (connections cut, new ones refused), `blackhole()` a server that freezes (connections
 * cut, new ones accepted and never answered), `start()` brings it back on the same port.
 */
export async function startTcpProxy(target: { host: string; port: number } | { path: string }) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  let frozen = false;

  async function start(): Promise<void> {
    server = createServer((client) => {
      if (frozen) {
        sockets.add(client);
        client.on("close", () => sockets.delete(client));
        client.on("error", () => client.destroy());
        return;
      }
      const upstream = "path" in target ? connect(target.path) : connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
        socket.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server?.listen(port, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  }

  async function stop(): Promise<void> {
    frozen = false;
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  }

  async function blackhole(): Promise<void> {
    await stop();
    frozen = true;
    await start();
  }

  await start();
  return {
    get port() {
      return port;
    },
    /** Relay again (a no-op while relaying). */
    start: async () => {
      if (server && !frozen) return;
      await stop();
      await start();
    },
    stop,
    blackhole,
  };
}

/**
 * Where a PostgreSQL URL's server is, for the relay: a TCP host and port, or (the embedded server,
 * `?host=/socket/dir`) its Unix socket; and the same URL through the relay on 127.0.0.1.
 */
export function postgresTarget(url: string): {
  target: { host: string; port: number } | { path: string };
  via(port: number): string;
} {
  const parsed = new URL(url);
  const port = Number(parsed.port || 5432);
  const socketDir = parsed.searchParams.get("host");
  const target = socketDir?.startsWith("/") ? { path: `${socketDir}/.s.PGSQL.${port}` } : { host: parsed.hostname, port };
  return {
    target,
    via(relayPort: number) {
      const relayed = new URL(url);
      relayed.hostname = "127.0.0.1";
      relayed.port = String(relayPort);
      relayed.searchParams.delete("host");
      return relayed.toString();
    },
  };
}
