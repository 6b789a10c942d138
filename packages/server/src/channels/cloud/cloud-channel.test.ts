import { randomBytes } from "node:crypto";
import { buffer } from "node:stream/consumers";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { channelContext, insertConnection } from "../../../test/channel-support.js";
import { type GraphFake, startGraphFake } from "../../../test/graph-fake/index.js";
import { openTestDatabase } from "../../../test/harness.js";
import { whatsapps } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import { createSecretBox } from "../../lib/secret-box.js";
import { type ChannelHandlers, SendFailure, SendOutcomeUnknown } from "../channel.js";
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

  function session(id: number, graphUrl = fake.url, timeouts: { timeoutMs?: number; mediaTimeoutMs?: number } = {}) {
    const { events, handlers } = recorder();
    const channel = createCloudChannelFactory({ graphUrl, openSecret, timeoutMs: 2000, ...timeouts })(
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
    const { channel, events } = session(id, "http://127.0.0.1:9/v25.0");
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

  it("a send whose answer does not come in time is an unknown outcome: Meta has it, the session stays up", async () => {
    const { id, phoneNumberId } = await connection();
    // Deadlines with room for a loaded machine: the answer is held three times the send's deadline.
    const { channel, events } = session(id, fake.url, { timeoutMs: 1000 });
    await channel.start();
    fake.delayNext({ on: "messages", ms: 3000 });
    const outcome = await channel
      .send({ id: "3EB0SLOWANSWER", to: "5511999990001", isGroup: false, body: "slow" })
      .catch((e) => e);
    expect(outcome).toBeInstanceOf(SendOutcomeUnknown);
    expect(outcome).not.toBeInstanceOf(SendFailure);
    // Meta took it (and will report its statuses, naming our id), and nothing closed the session.
    expect(fake.accepted(phoneNumberId).filter((m) => m.to === "5511999990001")).toEqual([
      expect.objectContaining({ bizOpaqueCallbackData: "3EB0SLOWANSWER", type: "text" }),
    ]);
    expect(events).toEqual([{ status: "CONNECTED" }]);
    // The next send goes as usual.
    expect(await channel.send({ to: "5511999990001", isGroup: false, body: "next" })).toMatchObject({ wid: /^wamid\./ });
  });

  it("a send that could not connect is a failure to retry (it never left) and drops the session", async () => {
    // A Graph API of its own, gone after the session started: its port then refuses connections.
    const own = await startGraphFake();
    const { id, phoneNumberId, accessToken } = await connection();
    own.addAccount({ phoneNumberId, businessAccountId: "20", accessToken });
    const { channel, events } = session(id, own.url, { timeoutMs: 1000 });
    await channel.start();
    await own.close();
    const outcome = await channel.send({ id: "3EB0REFUSED", to: "5511999990002", isGroup: false, body: "x" }).catch((e) => e);
    expect(outcome).toBeInstanceOf(SendFailure);
    expect(outcome).toMatchObject({ code: "CLOUD_UNREACHABLE", permanent: false });
    expect(events.at(-1)).toEqual({
      closed: { reason: "dropped", statusReason: "CLOUD_UNREACHABLE", error: expect.stringContaining("ECONNREFUSED") },
    });
  });

  it("uploads have their own, longer deadline; a voice note is sent with voice: true", async () => {
    const { id, phoneNumberId } = await connection();
    const { channel, events } = session(id, fake.url, { timeoutMs: 1000, mediaTimeoutMs: 10_000 });
    await channel.start();
    fake.delayNext({ on: "media", ms: 2500 });
    const voice = { data: Buffer.from("OggS-voice"), mimetype: "audio/ogg; codecs=opus", filename: "voice.ogg", asVoice: true };
    const sent = await channel.send({ id: "3EB0VOICE", to: "5511999990003", isGroup: false, body: "", media: voice });
    expect(sent.wid).toMatch(/^wamid\./);
    const body = fake.sentMessages(phoneNumberId).at(-1);
    expect(body).toMatchObject({
      type: "audio",
      audio: { id: expect.any(String), voice: true },
      biz_opaque_callback_data: "3EB0VOICE",
    });
    // A plain audio file is no voice note.
    const song = { data: Buffer.from("ID3-song"), mimetype: "audio/mpeg", filename: "song.mp3" };
    await channel.send({ to: "5511999990003", isGroup: false, body: "", media: song });
    const plain = fake.sentMessages(phoneNumberId).at(-1) as { type: string; audio: Record<string, unknown> };
    expect(plain.type).toBe("audio");
    expect(Object.keys(plain.audio)).toEqual(["id"]);
    expect(events).toEqual([{ status: "CONNECTED" }]);
  });

  it("an upload past its deadline fails the send for a retry, without closing the session", async () => {
    const { id } = await connection();
    const { channel, events } = session(id, fake.url, { timeoutMs: 2000, mediaTimeoutMs: 1000 });
    await channel.start();
    fake.delayNext({ on: "media", ms: 3000 });
    const image = { data: Buffer.from("jpeg"), mimetype: "image/jpeg", filename: "a.jpg" };
    const outcome = await channel.send({ to: "5511999990004", isGroup: false, body: "", media: image }).catch((e) => e);
    // Nothing of the message itself was posted: sending it again is safe.
    expect(outcome).toBeInstanceOf(SendFailure);
    expect(outcome).toMatchObject({ permanent: false });
    expect(events).toEqual([{ status: "CONNECTED" }]);
  });

  it("the read receipt names the newest message Meta knows, never a call line", async () => {
    const { id, phoneNumberId } = await connection();
    const { channel } = session(id);
    await channel.start();
    await channel.markRead({ chat: "5511999990000", isGroup: false, wids: ["wamid.a", "wamid.b", "call-wacid.x"] });
    expect(fake.sentMessages(phoneNumberId).at(-1)).toEqual({
      messaging_product: "whatsapp",
      status: "read",
      message_id: "wamid.b",
    });
  });
});
