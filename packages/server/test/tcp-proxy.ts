import { connect, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP relay in front of a real server (PostgreSQL): `stop()` is the database going away for
 * the app (connections cut, new ones refused), `start()` brings it back on the same port.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  async function start(): Promise<void> {
    server = createServer((client) => {
      const upstream = connect(target.port, target.host);
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
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  }

  await start();
  return {
    get port() {
      return port;
    },
    start,
    stop,
  };
}
