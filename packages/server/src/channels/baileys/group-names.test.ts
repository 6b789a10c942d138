import type { GroupMetadata } from "@whiskeysockets/baileys";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { connectedSession, type Rig } from "../../../test/baileys/baileys-test-rig.js";
import { insertConnection } from "../../../test/channel-support.js";
import { openTestDatabase } from "../../../test/harness.js";
import { METADATA_TTL_MS } from "./group-names.js";

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let rig: Rig;

beforeAll(async () => {
  database = await openTestDatabase();
  rig = await connectedSession(database.db, await insertConnection(database.db, "baileys"));
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await rig.session.stop();
  await database.close();
  await database.drop();
});

const GROUP = "120363041234567890@g.us";
const member = (digits: string) => ({ id: `${digits}@s.whatsapp.net`, admin: null });
/** What Baileys asks before encrypting a group message: the members who get a copy. */
const fanOut = async () => {
  const metadata = await rig.socket.config.cachedGroupMetadata?.(GROUP);
  return metadata?.participants.map((p) => p.id).sort();
};

describe("group metadata for Baileys' sends", () => {
  it("is cached, and refreshed when members join or leave, so new members can decrypt and removed ones cannot", async () => {
    rig.socket.groups.set(GROUP, { id: GROUP, subject: "Team", participants: [member("5511999990001")] } as GroupMetadata);
    expect(await fanOut()).toEqual(["5511999990001@s.whatsapp.net"]);
    expect(await fanOut()).toEqual(["5511999990001@s.whatsapp.net"]);
    expect(rig.socket.groupQueries).toEqual([GROUP]);

    rig.socket.participantsUpdate(GROUP, "add", [member("5511999990002")]);
    expect(await fanOut()).toEqual(["5511999990001@s.whatsapp.net", "5511999990002@s.whatsapp.net"]);
    rig.socket.participantsUpdate(GROUP, "remove", [member("5511999990001")]);
    expect(await fanOut()).toEqual(["5511999990002@s.whatsapp.net"]);
  });

  it("a groups.update (settings, subject) refreshes it too", async () => {
    const queries = rig.socket.groupQueries.length;
    rig.socket.groups.set(GROUP, { id: GROUP, subject: "Renamed", participants: [member("5511999990003")] } as GroupMetadata);
    rig.socket.ev.emit("groups.update", [{ id: GROUP, subject: "Renamed" }]);
    expect(await fanOut()).toEqual(["5511999990003@s.whatsapp.net"]);
    expect(rig.socket.groupQueries.length).toBe(queries + 1);
  });

  it("is never served older than its TTL, even without an event", async () => {
    expect(await fanOut()).toEqual(["5511999990003@s.whatsapp.net"]);
    // A change WhatsApp did not tell this device about.
    rig.socket.groups.set(GROUP, { id: GROUP, subject: "Renamed", participants: [member("5511999990004")] } as GroupMetadata);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + METADATA_TTL_MS - 1000);
    expect(await fanOut()).toEqual(["5511999990003@s.whatsapp.net"]);
    vi.setSystemTime(Date.now() + 2000);
    expect(await fanOut()).toEqual(["5511999990004@s.whatsapp.net"]);
  });
});

describe("typing", () => {
  it("the agent's typing reaches the customer as presence in that chat", async () => {
    await rig.session.sendPresence({ chat: "5511999990001", isGroup: false, state: "composing" });
    await rig.session.sendPresence({ chat: "21795436714609@lid", isGroup: false, state: "paused" });
    await rig.session.sendPresence({ chat: "120363041234567890", isGroup: true, state: "composing" });
    expect(rig.socket.presences).toEqual([
      { type: "composing", jid: "5511999990001@s.whatsapp.net" },
      { type: "paused", jid: "21795436714609@lid" },
      { type: "composing", jid: GROUP },
    ]);
  });
});
