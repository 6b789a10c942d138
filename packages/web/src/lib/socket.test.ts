// @vitest-environment jsdom
import { createServer } from "node:http";
import { Server } from "socket.io";
import { afterEach, describe, expect, it } from "vitest";
import { ADMIN, fakeApi } from "../testing/fake-api";
import { ignoreTimersStartedBy } from "../testing/leak-guard";
import { listenAsPageOrigin } from "../testing/page-origin";
import { connectSocket, disconnectSocket } from "./socket";

/*
 * A real socket.io server on the page's origin (the client connects to its own
 * host), on a free port: it accepts only the token "fresh".
 */
async function startServer(accepted = ["fresh"]) {
  const http = createServer();
  const io = new Server(http, { path: "/socket.io" });
  const seen: string[] = [];
  io.use((socket, next) => {
    const token = String(socket.handshake.auth.token);
    seen.push(token);
    next(accepted.includes(token) ? undefined : new Error("ERR_SESSION_EXPIRED"));
  });
  await listenAsPageOrigin(http);
  return {
    seen,
    io,
    close: () => new Promise<void>((resolve) => io.close(() => resolve())),
  };
}

// The server's side (engine.io waits up to 30 s for a polling client's last request): not the page's work.
ignoreTimersStartedBy(/node_modules\/(engine\.io|socket\.io)\/build\//);

describe("the app's socket (lib/socket)", () => {
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  afterEach(async () => {
    disconnectSocket();
    await server?.close();
  });

  it("is one connection, authenticated with the access token, that refreshes and retries when refused", async () => {
    server = await startServer();
    const api = fakeApi({ "POST /api/auth/refresh_token": { body: { token: "fresh", user: ADMIN } } });
    localStorage.setItem("token", "stale");
    const socket = await connectSocket();
    expect(await connectSocket()).toBe(socket);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("not connected")), 8000);
      socket.on("connect", () => {
        clearTimeout(timer);
        resolve();
      });
    });
    expect(server.seen).toEqual(["stale", "fresh"]);
    expect(api.callsTo("POST", "/api/auth/refresh_token")).toHaveLength(1);
    expect(localStorage.getItem("token")).toBe("fresh");
  });

  it("logs out when the refresh is refused", async () => {
    server = await startServer();
    fakeApi();
    localStorage.setItem("token", "stale");
    const { onSessionChange } = await import("./api-client");
    const expired = new Promise<string>((resolve) => onSessionChange((event) => resolve(event)));
    await connectSocket();
    await expect(expired).resolves.toBe("expired");
    expect(localStorage.getItem("token")).toBeNull();
  });

  it("comes back with a fresh token when the server drops it (token expired), and resumes", async () => {
    server = await startServer(["first", "fresh"]);
    const api = fakeApi({ "POST /api/auth/refresh_token": { body: { token: "fresh", user: ADMIN } } });
    localStorage.setItem("token", "first");
    const socket = await connectSocket();
    const connected = () => new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    await connected();
    const again = connected();
    server.io.disconnectSockets(true);
    await again;
    expect(server.seen).toEqual(["first", "fresh"]);
    expect(api.callsTo("POST", "/api/auth/refresh_token")).toHaveLength(1);
    expect(socket.connected).toBe(true);
  });

  it("signs out when the server dropped it and the session is gone (logout elsewhere, new password)", async () => {
    server = await startServer(["first"]);
    fakeApi();
    localStorage.setItem("token", "first");
    const { onSessionChange } = await import("./api-client");
    const socket = await connectSocket();
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    const expired = new Promise<string>((resolve) => onSessionChange((event) => resolve(event)));
    server.io.disconnectSockets(true);
    await expect(expired).resolves.toBe("expired");
    expect(localStorage.getItem("token")).toBeNull();
  });
});
