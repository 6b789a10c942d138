import { randomBytes } from "node:crypto";
import { buffer } from "node:stream/consumers";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GraphFake, startGraphFake } from "../../../test/graph-fake/index.js";
import { openTestDatabase } from "../../../test/harness.js";
import { whatsapps } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import { createSecretBox } from "../../lib/secret-box.js";
import { type ChannelHandlers, SendFailure } from "../channel.js";
import { channelContext, insertConnection } from "../test-support.js";
import { createCloudChannelFactory } from "./cloud-channel.js";

type Db = Awaited<ReturnType<typeof openTestDatabase>>;

function recorder() {
  const events: { status?: string; closed?: Parameters<ChannelHandlers["onClosed"]>[0] }[] = [];
  const handlers: ChannelHandlers = {
    onQr: () => {},
    onPairingCode: () => {},
    onStatus: (status) => events.push({ status }),
    onClosed: (info) => events.push({ closed: info }),
    onMessage: async () => {},
    onUpdate: async () => {},
    onCall: async () => {},
    onIdentity: async () => {},
  };
  return { events, handlers };
}

describe("Cloud API channel session", () => {
  let database: Db;
  let fake: GraphFake;
  const box = createSecretBox(randomBytes(32).toString("hex"));
  const openSecret = (sealed: string | null) => (sealed ? box.open(sealed) : "");

  beforeAll(async () => {
    database = await openTestDatabase();
    fake = await startGraphFake();
  });
  afterAll(async () => {
    await fake?.close();
    await database?.close();
    await database?.drop();
  });

  /** A cloud connection row with sealed secrets, known to the fake. */
  async function connection(options: { known?: boolean } = {}) {
    const id = await insertConnection(database.db, "cloud");
    const phoneNumberId = `10${Date.now()}${id}`;
    const accessToken = `EAAG${randomBytes(8).toString("hex")}`;
    await database.db
      .update(whatsapps)
      .set({
        cloudPhoneNumberId: phoneNumberId,
        cloudBusinessAccountId: `20${id}`,
        cloudAccessToken: box.seal(accessToken),
        cloudAppSecret: box.seal("secret"),
      })
      .where(eq(whatsapps.id, id));
    // Unknown: the token is valid, but for another phone number (a typo in the phone number id).
    const known = options.known === false ? `${phoneNumberId}9` : phoneNumberId;
    fake.addAccount({ phoneNumberId: known, businessAccountId: `20${id}`, accessToken });
    return { id, phoneNumberId, accessToken };
  }

  function session(id: number, graphUrl = fake.url) {
    const { events, handlers } = recorder();
    const channel = createCloudChannelFactory({ graphUrl, openSecret, timeoutMs: 2000 })(
      channelContext(database.db, id, handlers, { mediaMaxBytes: 1024 }),
    );
    return { channel, events };
  }

  it("is CONNECTED once GET /{phone-number-id} succeeds with the token", async () => {
    const { id, phoneNumberId, accessToken } = await connection();
    const { channel, events } = session(id);
    await channel.start();
    expect(events).toEqual([{ status: "CONNECTED" }]);
    const check = fake.requests.find((r) => r.path === `/${phoneNumberId}`);
    expect(check?.authorization).toBe(`Bearer ${accessToken}`);
  });

  it("closes for good with TOKEN_INVALID on 190, with CLOUD_ERROR on a wrong phone number id", async () => {
    const revoked = await connection();
    fake.revokeToken(revoked.accessToken);
    const first = session(revoked.id);
    await first.channel.start();
    expect(first.events).toEqual([
      { closed: { reason: "terminal", statusReason: "TOKEN_INVALID", error: expect.stringContaining("190") } },
    ]);
    const unknown = await connection({ known: false });
    const second = session(unknown.id);
    await second.channel.start();
    expect(second.events[0].closed).toMatchObject({ reason: "terminal", statusReason: "CLOUD_ERROR" });
  });

  it("drops (to be retried) with CLOUD_UNREACHABLE when the Graph API does not answer", async () => {
    const { id } = await connection();
    const { channel, events } = session(id, "http://127.0.0.1:9/v21.0");
    await channel.start();
    expect(events).toEqual([{ closed: { reason: "dropped", statusReason: "CLOUD_UNREACHABLE", error: expect.any(String) } }]);
  });

  it("a send refused with 190 closes the session but is not a permanent failure; 100 is", async () => {
    const { id, accessToken } = await connection();
    const { channel, events } = session(id);
    await channel.start();
    fake.failNext({ code: 100 });
    const invalid = await channel.send({ to: "5511999990000", isGroup: false, body: "x" }).catch((e) => e);
    expect(invalid).toBeInstanceOf(SendFailure);
    expect(invalid).toMatchObject({ code: "100", permanent: true });
    fake.failNext({ code: 131056 });
    const paced = await channel.send({ to: "5511999990000", isGroup: false, body: "x" }).catch((e) => e);
    expect(paced).toMatchObject({ code: "131056", permanent: false, retryAfterMs: 6000 });
    fake.revokeToken(accessToken);
    const expired = await channel.send({ to: "5511999990000", isGroup: false, body: "x" }).catch((e) => e);
    expect(expired).toMatchObject({ code: "190", permanent: false });
    expect(events.at(-1)).toEqual({
      closed: { reason: "terminal", statusReason: "TOKEN_INVALID", error: expect.any(String) },
    });
    await expect(channel.send({ to: "5511999990000", isGroup: false, body: "x" })).rejects.toMatchObject({
      code: "ERR_WAPP_NOT_INITIALIZED",
    });
  });

  it("does what the Cloud API can, refuses what it cannot, and caps media downloads", async () => {
    const { id, phoneNumberId } = await connection();
    const { channel } = session(id);
    await channel.start();
    expect(await channel.checkNumber("+55 (11) 99999-0000")).toBe("5511999990000");
    await expect(channel.checkNumber("12")).rejects.toMatchObject({ code: "ERR_WAPP_INVALID_CONTACT" });
    await expect(channel.deleteMessage({ chat: "1", isGroup: false, wid: "w", fromMe: true })).rejects.toBeInstanceOf(AppError);
    await expect(channel.listContacts()).rejects.toMatchObject({ code: "ERR_WAPP_NOT_SUPPORTED" });
    expect(await channel.profilePictureUrl("5511999990000", false)).toBeUndefined();
    await channel.sendPresence({ chat: "5511999990000", isGroup: false, state: "composing" });
    await expect(channel.send({ to: "120363041234567890", isGroup: true, body: "x" })).rejects.toMatchObject({
      permanent: true,
    });

    await channel.markRead({ chat: "5511999990000", isGroup: false, wids: ["wamid.old", "wamid.new"] });
    expect(fake.sentMessages(phoneNumberId).at(-1)).toEqual({
      messaging_product: "whatsapp",
      status: "read",
      message_id: "wamid.new",
    });

    const small = fake.putMedia(Buffer.from("tiny"), "image/jpeg", phoneNumberId);
    expect((await buffer(await channel.downloadMedia({ type: "image", image: { id: small } }))).toString()).toBe("tiny");
    const big = fake.putMedia(Buffer.alloc(4096), "video/mp4", phoneNumberId);
    await expect(channel.downloadMedia({ type: "video", video: { id: big } })).rejects.toThrow(/size limit/);
  });
});
