// @vitest-environment jsdom
import { createServer } from "node:http";
import { useQuery } from "@tanstack/react-query";
import { screen } from "@testing-library/react";
import { Server, type Socket } from "socket.io";
import { afterEach, expect, it } from "vitest";
import { ADMIN, fakeApi, signedInAs } from "../testing/fake-api";
import { listenAsPageOrigin } from "../testing/page-origin";
import { renderWithProviders } from "../testing/render";
import { useRealtimeSync } from "./realtime-sync";

/*
 * A real socket.io server on the page's origin (the client connects to its own host), on a free port.
 */
async function startServer() {
  const http = createServer();
  const io = new Server(http, { path: "/socket.io" });
  const joined: Socket[] = [];
  io.on("connection", (socket) => socket.on("joinNotification", () => joined.push(socket)));
  await listenAsPageOrigin(http);
  return { io, joined, close: () => new Promise<void>((resolve) => io.close(() => resolve())) };
}

let server: Awaited<ReturnType<typeof startServer>> | undefined;
afterEach(async () => {
  await server?.close();
});

let fetches = 0;
function ScheduledList() {
  useRealtimeSync();
  const { data } = useQuery({ queryKey: ["schedules"], queryFn: async () => ++fetches });
  return <p>fetched {data ?? 0}</p>;
}

it("connects after the first render, refetches what was loaded before it listened, then follows events", async () => {
  server = await startServer();
  signedInAs(fakeApi(), ADMIN);
  await renderWithProviders(<ScheduledList />);
  // The list is in before the socket (its client is fetched on demand) has connected.
  expect(await screen.findByText("fetched 1")).toBeInTheDocument();
  // Once it listens, what was fetched before is fetched again: an event sent in between is not lost.
  expect(await screen.findByText("fetched 2")).toBeInTheDocument();
  await expect.poll(() => server?.joined.length).toBe(1);
  server.io.emit("schedule", { action: "update", schedule: { id: 1 } } as never);
  expect(await screen.findByText("fetched 3")).toBeInTheDocument();
});

it("refetches what it shows when the server says events may have been lost (Redis back after an outage)", async () => {
  server = await startServer();
  signedInAs(fakeApi(), ADMIN);
  fetches = 0;
  await renderWithProviders(<ScheduledList />);
  expect(await screen.findByText("fetched 2")).toBeInTheDocument();
  await expect.poll(() => server?.joined.length).toBe(1);
  server.io.emit("resync", { reason: "adapter" });
  expect(await screen.findByText("fetched 3")).toBeInTheDocument();
});

let slowFetches = 0;
function SlowList({ answered }: { answered: () => Promise<void> }) {
  useRealtimeSync();
  const { data } = useQuery({
    queryKey: ["slow"],
    queryFn: async () => {
      const n = ++slowFetches;
      if (n === 1) await answered();
      return n;
    },
  });
  return <p>slow {data ?? 0}</p>;
}

it("fetches again a first fetch still under way when the socket connects: it may have read the server before an event", async () => {
  server = await startServer();
  signedInAs(fakeApi(), ADMIN);
  slowFetches = 0;
  // The first answer lands only after the socket has connected (and so after an event it missed).
  const connected = async () => {
    while (!server?.joined.length) await new Promise((resolve) => setTimeout(resolve, 10));
  };
  await renderWithProviders(<SlowList answered={connected} />);
  // Fetched again once the first answer has landed (so fast the first may never paint).
  expect(await screen.findByText("slow 2")).toBeInTheDocument();
  expect(slowFetches).toBe(2);
});
