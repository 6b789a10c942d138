import type { AgentLoad, UserPresence } from "@zapdesk/core";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, eventually, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { connectAs, listen, type RecordingSocket } from "../../../test/sockets.js";

// Issue 13: presence from sockets (online / away / offline) and the agents' load.
let t: TestApp;
let admin: TestUser;
let url: string;
const opened: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
  url = await listen(t);
});
afterAll(async () => {
  for (const socket of opened) socket.disconnect();
  await t.close();
});

async function presence(app: TestApp, who: TestUser): Promise<UserPresence[]> {
  const res = await app.app.inject({ method: "GET", url: "/api/users/presence", headers: who.auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const statusOf = async (app: TestApp, who: TestUser, userId: number) =>
  (await presence(app, who)).find((p) => p.userId === userId)?.status;
const presenceEvents = (socket: RecordingSocket, userId: number) =>
  socket.received
    .filter((r) => r.event === "presence")
    .map((r) => r.payload as { userId: number; status: string })
    .filter((p) => p.userId === userId)
    .map((p) => p.status);

describe("presence", () => {
  it("is online with a socket, away when every tab is idle, offline without sockets; announced live", async () => {
    const agent = await makeUser(t);
    const watcher = await connectAs(url, admin, opened);
    expect(await statusOf(t, admin, agent.id)).toBe("offline");

    const tab1 = await connectAs(url, agent, opened);
    const tab2 = await connectAs(url, agent, opened);
    await eventually(async () => expect(await statusOf(t, agent, agent.id)).toBe("online"));

    const heard = presenceEvents(watcher, agent.id).length;
    tab1.emit("presence", "away");
    // One tab still active: the change is announced, and the user is still online.
    await eventually(() => expect(presenceEvents(watcher, agent.id).length).toBeGreaterThan(heard));
    expect(presenceEvents(watcher, agent.id).at(-1)).toBe("online");
    expect(await statusOf(t, admin, agent.id)).toBe("online");
    tab2.emit("presence", "away");
    await eventually(async () => expect(await statusOf(t, admin, agent.id)).toBe("away"));
    await eventually(() => expect(presenceEvents(watcher, agent.id).at(-1)).toBe("away"));

    tab2.emit("presence", "online");
    await eventually(async () => expect(await statusOf(t, admin, agent.id)).toBe("online"));

    tab1.disconnect();
    tab2.disconnect();
    await eventually(async () => expect(await statusOf(t, admin, agent.id)).toBe("offline"));
    await eventually(() => expect(presenceEvents(watcher, agent.id).at(-1)).toBe("offline"));
    expect(presenceEvents(watcher, agent.id)).toContain("online");
  });

  it("ignores a bad presence value and needs a signed-in user", async () => {
    const agent = await makeUser(t);
    const socket = await connectAs(url, agent, opened);
    await eventually(async () => expect(await statusOf(t, admin, agent.id)).toBe("online"));
    const watcher = await connectAs(url, admin, opened);
    socket.emit("presence", "asleep");
    socket.emit("presence", { status: "away" });
    // A socket's events are handled in order: once "away" is heard, the bad ones were ignored.
    socket.emit("presence", "away");
    await eventually(() => expect(presenceEvents(watcher, agent.id)).toEqual(["away"]));
    const anonymous = await t.app.inject({ method: "GET", url: "/api/users/presence" });
    expect(anonymous.statusCode).toBe(401);
    const docs = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(Object.keys(docs.json().paths)).toEqual(expect.arrayContaining(["/api/users/presence", "/api/dashboard/agents"]));
  });

  it("counts open tickets; the agents card shows admins everyone and agents their queues' colleagues", async () => {
    const queueA = await makeQueue(t, { name: "Presence A" });
    const queueB = await makeQueue(t, { name: "Presence B" });
    const ana = await makeUser(t, { queueIds: [queueA.id] });
    const bia = await makeUser(t, { queueIds: [queueA.id] });
    const caio = await makeUser(t, { queueIds: [queueB.id] });
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queueA.id] });
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, body: "hi" });
    const pending = await eventually(async () => {
      const rows: AgentLoad[] = (await t.app.inject({ method: "GET", url: "/api/dashboard/agents", headers: ana.auth })).json();
      const me = rows.find((r) => r.userId === ana.id);
      expect(me?.pendingInQueues).toBe(1);
      return rows;
    });
    const seen = pending.map((r) => r.userId);
    expect(seen).toEqual(expect.arrayContaining([ana.id, bia.id]));
    expect(seen).not.toContain(caio.id);
    expect(seen).not.toContain(admin.id);

    const all: AgentLoad[] = (await t.app.inject({ method: "GET", url: "/api/dashboard/agents", headers: admin.auth })).json();
    expect(all.map((r) => r.userId)).toEqual(expect.arrayContaining([ana.id, bia.id, caio.id, admin.id]));

    // Ana accepts the ticket: one open ticket, none pending left in her queue.
    const list = (
      await t.app.inject({ method: "GET", url: "/api/tickets", headers: ana.auth, query: { status: "pending" } })
    ).json();
    const ticket = list.tickets.find((x: { contact: { number: string } }) => x.contact.number === from);
    const accept = await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticket.id}`,
      headers: ana.auth,
      payload: { status: "open", userId: ana.id },
    });
    expect(accept.statusCode, accept.body).toBe(200);
    const after = (await presence(t, bia)).find((p) => p.userId === ana.id);
    expect(after).toMatchObject({ openTickets: 1, status: "offline", name: ana.name });
    const card: AgentLoad[] = (await t.app.inject({ method: "GET", url: "/api/dashboard/agents", headers: bia.auth })).json();
    expect(card.find((r) => r.userId === ana.id)).toMatchObject({ openTickets: 1, pendingInQueues: 0, queueIds: [queueA.id] });
  });

  // Two processes behind one Redis: each reads every process's sockets through the adapter.
  it.skipIf(!process.env.TEST_REDIS_URL)("is the same seen from two app instances sharing Redis", async () => {
    const second = await createTestApp({
      database: t.database,
      start: false,
      config: { jwtSecret: t.config.jwtSecret, jwtRefreshSecret: t.config.jwtRefreshSecret },
    });
    try {
      const secondUrl = await listen(second);
      const agent = await makeUser(t);
      const watcher = await connectAs(url, admin, opened);
      const socket = await connectAs(secondUrl, agent, opened);
      await eventually(async () => expect(await statusOf(t, admin, agent.id)).toBe("online"));
      await eventually(() => expect(presenceEvents(watcher, agent.id).at(-1)).toBe("online"));
      socket.emit("presence", "away");
      await eventually(async () => expect(await statusOf(t, admin, agent.id)).toBe("away"));
      expect(await statusOf(second, admin, agent.id)).toBe("away");
      socket.disconnect();
      await eventually(async () => expect(await statusOf(t, admin, agent.id)).toBe("offline"));
      await eventually(() => expect(presenceEvents(watcher, agent.id).at(-1)).toBe("offline"));
    } finally {
      await second.close();
    }
  });
});
