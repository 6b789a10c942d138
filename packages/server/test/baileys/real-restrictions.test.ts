import type { BinaryNode } from "@whiskeysockets/baileys";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ChannelSession, type RestrictionReport, SendOutcomeUnknown } from "../../src/channels/channel.js";
import { channelContext, insertConnection } from "../channel-support.js";
import { openTestDatabase } from "../harness.js";
import { type Recorded, recordingHandlers } from "./baileys-test-rig.js";
import { dispatch, loginAnswer, loginSuccess, MEX_QUERY, mexAnswer, mexNotification, mexQueryId } from "./real-stanzas.js";
import { localWhatsApp, OFFLINE_DRAINED, pairedDevice } from "./real-whatsapp.js";

/**
 * WhatsApp's restrictions of the number through the real makeWASocket (rc14's own mex handlers and
 * restriction queries) and Zapdesk's adapter: what the connection learns, and a send that hangs.
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let server: Awaited<ReturnType<typeof localWhatsApp>>;
let session: ChannelSession;
let rec: Recorded;
let ws: Awaited<ReturnType<typeof server.ws>>;
const reports: RestrictionReport[] = [];
/** The restriction queries Baileys sent, by query id. */
const asked: string[] = [];

const inAnHour = Math.floor(Date.now() / 1000) + 3600;
const cycleEnd = Math.floor(Date.now() / 1000) + 20 * 86400;

function answer(iq: BinaryNode): BinaryNode | undefined {
  const query = mexQueryId(iq);
  if (query) asked.push(query);
  if (query === MEX_QUERY.reachoutTimelock) {
    return mexAnswer(iq, {
      xwa2_fetch_account_reachout_timelock: {
        is_active: true,
        time_enforcement_ends: String(inAnHour),
        enforcement_type: "BIZ_QUALITY",
      },
    });
  }
  if (query === MEX_QUERY.messageCappingInfo) {
    return mexAnswer(iq, {
      xwa2_message_capping_info: {
        total_quota: 250,
        used_quota: 212,
        capping_status: "FIRST_WARNING",
        cycle_end_timestamp: String(cycleEnd),
      },
    });
  }
  return loginAnswer(iq);
}

beforeAll(async () => {
  database = await openTestDatabase();
  server = await localWhatsApp({ channel: { sendTimeoutMs: 700 }, socket: { keepAliveIntervalMs: 600_000 }, answer });
  const whatsappId = await insertConnection(database.db, "baileys");
  await pairedDevice(database.db, whatsappId);
  const recording = recordingHandlers();
  rec = recording.rec;
  session = server.factory(
    channelContext(database.db, whatsappId, { ...recording.handlers, onRestriction: (report) => reports.push(report) }),
  );
  await session.start();
  ws = await server.ws();
  dispatch(ws, OFFLINE_DRAINED);
  dispatch(ws, loginSuccess());
  await vi.waitFor(() => expect(rec.statuses).toContain("CONNECTED"), { timeout: 10_000 });
});
afterAll(async () => {
  await session?.stop();
  await server?.close();
  await database?.close();
  await database?.drop();
});

describe("restrictions reported by WhatsApp, through the real Baileys", () => {
  it("are asked for when the connection opens: the time-lock and the new-chat cap as WhatsApp answers them", async () => {
    await vi.waitFor(() => expect(reports).toHaveLength(2));
    expect(reports).toContainEqual({
      timeLock: { active: true, endsAt: new Date(inAnHour * 1000), enforcementType: "BIZ_QUALITY" },
    });
    expect(reports).toContainEqual({
      newChatCap: { used: 212, total: 250, status: "FIRST_WARNING", cycleEndsAt: new Date(cycleEnd * 1000) },
    });
  });

  it("come as WhatsApp's mex notifications: the time-lock lifted, the cap reached", async () => {
    reports.length = 0;
    dispatch(
      ws,
      mexNotification("mex-1", "NotificationUserReachoutTimelockUpdate", {
        xwa2_notify_account_reachout_timelock: { is_active: false },
      }),
    );
    dispatch(
      ws,
      mexNotification("mex-2", "MessageCappingInfoNotification", {
        xwa2_notify_new_chat_messages_capping_info_update: {
          total_quota: 250,
          used_quota: 250,
          capping_status: "CAPPED",
          cycle_end_timestamp: String(cycleEnd),
        },
      }),
    );
    await vi.waitFor(() => expect(reports).toHaveLength(2));
    expect(reports[0]).toEqual({ timeLock: { active: false, endsAt: undefined, enforcementType: "DEFAULT" } });
    expect(reports[1]).toEqual({
      newChatCap: { used: 250, total: 250, status: "CAPPED", cycleEndsAt: new Date(cycleEnd * 1000) },
    });
  });

  it("are asked for again after a 463 NACK (rc14 itself only retries the privacy token)", async () => {
    reports.length = 0;
    const before = asked.filter((q) => q === MEX_QUERY.reachoutTimelock).length;
    dispatch(ws, {
      tag: "ack",
      attrs: { class: "message", from: "5511999990009@s.whatsapp.net", id: "3EB0NACKED0001", error: "463" },
    });
    await vi.waitFor(() => expect(rec.updates.find((u) => u.wid === "3EB0NACKED0001")?.ack).toBe(-1));
    await vi.waitFor(() => expect(asked.filter((q) => q === MEX_QUERY.reachoutTimelock)).toHaveLength(before + 1));
    await vi.waitFor(() => expect(reports.some((r) => r.timeLock?.active)).toBe(true));
  });
});

describe("a send WhatsApp Web never answers", () => {
  it("is an unknown outcome carrying our own message id, after the adapter's timeout", async () => {
    const started = Date.now();
    const outcome = await session
      .send({ id: "3EB0HANGING000000001", to: "5511999990002", isGroup: false, body: "olá" })
      .catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(SendOutcomeUnknown);
    expect(outcome).toMatchObject({ wid: "3EB0HANGING000000001" });
    // Baileys may still finish it: the error carries the send, so a late answer can settle the message.
    expect((outcome as SendOutcomeUnknown).late).toBeInstanceOf(Promise);
    // Baileys was still waiting for the server (its own query timeout is a minute away).
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
