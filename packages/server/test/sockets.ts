import type { AddressInfo } from "node:net";
import { io as connectClient, type ManagerOptions, type Socket, type SocketOptions } from "socket.io-client";
import type { TestApp } from "./harness.js";

/** Listen on a free port; the base URL for socket.io clients. */
export async function listen(app: TestApp): Promise<string> {
  await app.app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
}

/** Real socket.io clients, closed together by `closeAll` (call it in afterEach). */
export function socketClients() {
  const sockets: Socket[] = [];
  return {
    open(base: string, options: Partial<ManagerOptions & SocketOptions> = {}): Socket {
      const socket = connectClient(base, { transports: ["websocket"], reconnection: false, forceNew: true, ...options });
      sockets.push(socket);
      return socket;
    },
    /** A connected socket, or the reason it was refused. */
    connect(base: string, token: string | undefined): Promise<Socket> {
      return opened(this.open(base, { auth: token === undefined ? {} : { token } }));
    },
    closeAll() {
      for (const socket of sockets.splice(0)) socket.disconnect();
    },
  };
}

/** Resolves with the reason once the server (or the client) closes the socket. */
export const disconnection = (socket: Socket) => new Promise<string>((resolve) => socket.once("disconnect", resolve));

/** The socket once connected, or the reason it was refused. */
export const opened = (socket: Socket) =>
  new Promise<Socket>((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", reject);
  });
