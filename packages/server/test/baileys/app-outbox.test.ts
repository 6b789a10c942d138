import { spawnSync } from "node:child_process";
import { MEDIA_STATE } from "@zapdesk/core";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isBaileysRaw } from "../../src/channels/baileys/baileys-translate.js";
import { messages } from "../../src/db/schema.js";
import { isWhatsAppVoiceNote } from "../../src/media/voice.js";
import { eventually } from "../conversation.js";
import { skipWithoutFfmpeg } from "../ffmpeg.js";
import { openTestDatabase } from "../harness.js";
import {
  agentSends,
  type BaileysApp,
  logSettled,
  makeBaileysConnection,
  messagesOf,
  startBaileysApp,
  ticketOf,
  updateTicket,
} from "./app-rig.js";
import type { FakeSocket } from "./fake-socket.js";
import { incoming } from "./inbound-helpers.js";

/** What production sends through the outbox, and what comes back for it, with the Baileys adapter. */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let app: BaileysApp;
let socket: FakeSocket;
let whatsappId: number;
let ticketId: number;
const CUSTOMER = "5511966660001";
const JID = `${CUSTOMER}@s.whatsapp.net`;

beforeAll(async () => {
  database = await openTestDatabase();
  app = await startBaileysApp({ database });
  ({ socket } = await makeBaileysConnection(app).then((made) => {
    whatsappId = made.connection.id;
    return made;
  }));
  socket.receive(incoming({ conversation: "oi" }, { remoteJid: JID }));
  ticketId = await ticketOf(app.t, whatsappId, CUSTOMER);
  await updateTicket(app.t, app.admin, ticketId, { status: "open", userId: app.admin.id });
});
afterAll(async () => {
  await app?.close();
  await database.close();
  await database.drop();
});

const rowOf = async (body: string) => {
  const [row] = await database.db
    .select()
    .from(messages)
    .where(and(eq(messages.whatsappId, whatsappId), eq(messages.body, body)));
  return row;
};
const sentText = (text: string) =>
  eventually(() => {
    const found = [...socket.sent].reverse().find((s) => "text" in s.content && s.content.text === text);
    expect(found).toBeDefined();
    return found!;
  });

describe("sent messages", () => {
  it("are refused visibly: a server NACK marks the message failed with its reason, and the agent can send it again", async () => {
    await agentSends(app.t, app.admin, ticketId, "primeira mensagem");
    const sent = await sentText("primeira mensagem");
    socket.nack(sent.message.key, "463");
    await logSettled(app.t, whatsappId, `nack:${sent.message.key.id}`);
    const refused = (await messagesOf(app.t, app.admin, ticketId)).find((m) => m.body === "primeira mensagem")!;
    expect(refused.ack).toBe(-1);
    expect(refused.error).toMatchObject({ code: "463" });
    expect(refused.error!.title).toMatch(/may not start new chats/);

    const retry = await app.t.app.inject({ method: "POST", url: `/api/messages/${refused.id}/retry`, headers: app.admin.auth });
    expect(retry.statusCode, retry.body).toBe(200);
    await eventually(() =>
      expect(socket.sent.filter((s) => "text" in s.content && s.content.text === "primeira mensagem")).toHaveLength(2),
    );
    await eventually(async () => expect((await rowOf("primeira mensagem"))?.ack).toBe(1));
  });

  it.skipIf(skipWithoutFfmpeg)(
    "a voice note goes out as WhatsApp's apps send one: converted Ogg/Opus, the codec named, ptt, length and waveform",
    async () => {
      const mp3 = spawnSync("ffmpeg", [
        "-v",
        "error",
        "-f",
        "lavfi",
        "-i",
        "sine=frequency=300:duration=3",
        "-f",
        "mp3",
        "pipe:1",
      ]).stdout;
      const boundary = "----zapdeskvoice";
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="isVoice"\r\n\r\ntrue\r\n`),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="rec.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`,
        ),
        mp3,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await app.t.app.inject({
        method: "POST",
        url: `/api/messages/${ticketId}`,
        headers: { ...app.admin.auth, "content-type": `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(res.statusCode, res.body).toBe(201);
      const sent = await eventually(() => {
        const found = socket.sent.find((s) => "audio" in s.content);
        expect(found).toBeDefined();
        return found!;
      });
      const audio = sent.message.message?.audioMessage;
      expect(audio).toMatchObject({ mimetype: "audio/ogg; codecs=opus", ptt: true, seconds: 3 });
      expect(audio?.waveform).toHaveLength(64);
      expect(isWhatsAppVoiceNote(("audio" in sent.content ? sent.content.audio : undefined) as Buffer)).toBe(true);
    },
  );

  it("answer resend requests from the database after a restart, with no cache left", async () => {
    await agentSends(app.t, app.admin, ticketId, "chegou?");
    const sent = await sentText("chegou?");
    await eventually(async () => expect(isBaileysRaw((await rowOf("chegou?"))?.raw)).toBe(true));

    await app.close();
    app = await startBaileysApp({ database });
    const restarted = await eventually(() => {
      expect(app.sockets).toHaveLength(1);
      return app.sockets[0];
    });
    const resent = await restarted.config.getMessage?.(sent.message.key);
    expect(resent?.extendedTextMessage?.text).toBe("chegou?");
  });
});

describe("received media", () => {
  it("bigger than the cap by its declared size is stored as too large, never downloaded", async () => {
    const live = await makeBaileysConnection(app);
    const big = incoming(
      {
        documentMessage: {
          mimetype: "application/zip",
          fileName: "dump.zip",
          fileLength: 3_000_000_000,
          mediaKey: Buffer.alloc(32, 1),
          directPath: "/v/x",
        },
      },
      { remoteJid: "5511966660002@s.whatsapp.net" },
    );
    live.socket.receive(big);
    await logSettled(app.t, live.connection.id, `msg:${big.key.id}`);
    const [row] = await database.db.select().from(messages).where(eq(messages.wid, big.key.id!));
    expect(row).toMatchObject({ mediaType: "document", mediaError: MEDIA_STATE.tooLarge, mediaPath: null });
    await app.t.pipeline.idle();
    expect(app.downloads.some((m) => m.key.id === big.key.id)).toBe(false);
  });
});
