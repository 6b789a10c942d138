import type { Connection, RealtimePayloads } from "@zapdesk/core";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fakeBaileys } from "../../../test/baileys/baileys-test-rig.js";
import type { FakeSocket } from "../../../test/baileys/fake-socket.js";
import { makeAdmin, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { startFakePushService } from "../../../test/push-fake.js";
import { connectAs, listen, type RecordingSocket } from "../../../test/sockets.js";
import { mergeRestriction, restrictionChange } from "./restriction-state.js";

/**
 * A QR connection whose number WhatsApp restricts: what Baileys emits for it (the exact rc14 event
 * shapes, from a socket at the adapter's boundary) reaches the stored connection, the API, the
 * admins' screens and their phones, and nobody else.
 */
let t: TestApp;
let fake: Awaited<ReturnType<typeof startFakePushService>>;
let admin: TestUser;
let agent: TestUser;
let socket: FakeSocket;
let whatsappId: number;
let url: string;
const opened: Socket[] = [];
const baileys = fakeBaileys();

beforeAll(async () => {
  fake = await startFakePushService();
  t = await createTestApp({
    factories: { baileys: baileys.factory },
    push: { allowInsecureEndpoints: true, retryDelaysMs: [0, 0] },
  });
  admin = await makeAdmin(t);
  agent = await makeUser(t);
  const res = await t.app.inject({
    method: "POST",
    url: "/api/whatsapp",
    headers: admin.auth,
    payload: { name: "Loja", provider: "baileys", queueIds: [] },
  });
  expect(res.statusCode, res.body).toBe(200);
  whatsappId = (res.json() as Connection).id;
  socket = await vi.waitFor(() => {
    expect(baileys.sockets).toHaveLength(1);
    return baileys.sockets[0];
  });
  socket.open();
  await vi.waitFor(() => expect(t.sessions.isConnected(whatsappId)).toBe(true));
  url = await listen(t);
});
afterAll(async () => {
  for (const s of opened) s.disconnect();
  await t.close();
  await fake.close();
});

const get = async (user: TestUser) =>
  (await t.app.inject({ method: "GET", url: `/api/whatsapp/${whatsappId}`, headers: user.auth })).json() as Connection;

async function subscribe(user: TestUser, name: string) {
  const browser = fake.browser(name);
  const res = await t.app.inject({
    method: "POST",
    url: "/api/push/subscriptions",
    headers: user.auth,
    payload: browser.subscription,
  });
  expect(res.statusCode, res.body).toBe(200);
  return browser;
}

const alerts = (s: RecordingSocket) =>
  s.received.filter((r) => r.event === "connectionRestricted").map((r) => r.payload as RealtimePayloads["connectionRestricted"]);

describe("a restricted number", () => {
  it("is stored and shown to admins, who are told on screen and by push; agents see nothing of it", async () => {
    const adminPhone = await subscribe(admin, "admin-phone");
    const agentPhone = await subscribe(agent, "agent-phone");
    const adminScreen = await connectAs(url, admin, opened);
    const agentScreen = await connectAs(url, agent, opened);
    const ends = new Date(Date.now() + 6 * 3600_000);
    ends.setMilliseconds(0);

    socket.ev.emit("connection.update", {
      reachoutTimeLock: { isActive: true, timeEnforcementEnds: ends, enforcementType: "BIZ_QUALITY" as never },
    });
    await vi.waitFor(() => expect(alerts(adminScreen)).toHaveLength(1));
    expect(alerts(adminScreen)[0].whatsapp.restriction).toMatchObject({
      timeLock: { enforcementType: "BIZ_QUALITY", endsAt: ends.toISOString() },
    });
    expect((await get(admin)).restriction?.timeLock).toMatchObject({
      enforcementType: "BIZ_QUALITY",
      endsAt: ends.toISOString(),
    });
    expect((await get(agent)).restriction).toBeNull();

    await t.services.push.idle();
    const [push] = fake.to(adminPhone.path);
    expect(adminPhone.decrypt(push.body)).toEqual({
      title: "⚠ Loja",
      body: expect.stringMatching(/blocks new chats until .* UTC/),
      url: "/connections",
      tag: `connection-${whatsappId}`,
      ticketId: null,
    });
    expect(fake.to(agentPhone.path)).toEqual([]);
    const sessions = agentScreen.received.filter((r) => r.event === "whatsappSession");
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.every((r) => (r.payload as RealtimePayloads["whatsappSession"]).session.restriction === null)).toBe(true);
    expect(alerts(agentScreen)).toEqual([]);

    // The same news again (the answer to a query after a 463) tells no one twice.
    socket.ev.emit("connection.update", {
      reachoutTimeLock: { isActive: true, timeEnforcementEnds: ends, enforcementType: "BIZ_QUALITY" as never },
    });
    // WhatsApp warns about the monthly cap: that is new.
    socket.ev.emit("message-capping.update", {
      total_quota: 250,
      used_quota: 230,
      capping_status: "SECOND_WARNING" as never,
      cycle_end_timestamp: String(Math.floor(Date.now() / 1000) + 86400 * 9),
    });
    await vi.waitFor(() => expect(alerts(adminScreen)).toHaveLength(2));
    expect(alerts(adminScreen)[1].whatsapp.restriction?.newChatCap).toMatchObject({
      used: 230,
      total: 250,
      status: "SECOND_WARNING",
    });

    // Lifted: the connection says so, and that is not an alert.
    socket.ev.emit("connection.update", { reachoutTimeLock: { isActive: false } });
    await vi.waitFor(async () => expect((await get(admin)).restriction?.timeLock).toBeNull());
    expect(alerts(adminScreen)).toHaveLength(2);
  });
});

describe("the connection's API description", () => {
  it("documents the restriction field with its parts", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    const answer = JSON.stringify(doc.paths["/api/whatsapp/{id}"].get.responses["200"]);
    for (const field of ["restriction", "timeLock", "enforcementType", "newChatCap", "cycleEndsAt", "CAPPED"]) {
      expect(answer).toContain(field);
    }
  });
});

describe("the restriction's state", () => {
  const now = new Date("2026-11-20T12:00:00Z");
  it("merges each report into its own part and tells what got worse or lifted", () => {
    const locked = mergeRestriction(null, { timeLock: { active: true, endsAt: new Date("2026-11-21T00:00:00Z") } }, now);
    expect(locked).toEqual({
      timeLock: { enforcementType: "DEFAULT", endsAt: "2026-11-21T00:00:00.000Z", since: now.toISOString() },
      newChatCap: null,
    });
    expect(restrictionChange(null, locked, now)).toEqual({ worse: true, lifted: false });
    const capped = mergeRestriction(locked, { newChatCap: { status: "CAPPED", used: 250, total: 250 } }, now);
    expect(capped?.timeLock).toEqual(locked?.timeLock);
    expect(restrictionChange(locked, capped, now)).toEqual({ worse: true, lifted: false });
    const unlocked = mergeRestriction(capped, { timeLock: { active: false } }, now);
    // Still capped: new chats stay blocked.
    expect(restrictionChange(capped, unlocked, now)).toEqual({ worse: false, lifted: false });
    const fresh = mergeRestriction(unlocked, { newChatCap: { status: "NONE", used: 0 } }, now);
    expect(fresh?.newChatCap).toMatchObject({ status: "NONE", used: 0, total: 250 });
    expect(restrictionChange(unlocked, fresh, now)).toEqual({ worse: false, lifted: true });
    // A status WhatsApp has not used before keeps the last known one.
    expect(mergeRestriction(fresh, { newChatCap: { status: "SOMETHING_NEW" } }, now)?.newChatCap?.status).toBe("NONE");
  });
});
