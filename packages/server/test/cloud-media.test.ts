import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message } from "@zapdesk/core";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contacts, messages, tickets } from "../src/db/schema.js";
import { type CloudConnection, customerPhone, makeCloudConnection, messagesOf, startCloudApp } from "./cloud-rig.js";
import { eventually } from "./conversation.js";
import { makeAdmin, type TestUser } from "./factories.js";
import { skipWithoutFfmpeg } from "./ffmpeg.js";
import { payloads } from "./graph-fake/index.js";

// A real 1x1 JPEG, so type sniffing on both sides sees an image.
const JPEG = Buffer.from(
  "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=",
  "base64",
);

function multipart(fields: Record<string, string>, file: { name: string; type: string; data: Buffer }) {
  const boundary = `----zapdesk${Date.now()}`;
  const parts: Buffer[] = [];
  for (const [key, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

describe("Cloud API media, in and out", () => {
  let app: Awaited<ReturnType<typeof startCloudApp>>;
  let admin: TestUser;
  let cloud: CloudConnection;

  beforeAll(async () => {
    app = await startCloudApp();
    admin = await makeAdmin(app.t);
    cloud = await makeCloudConnection(app, admin);
  });
  afterAll(async () => app?.close());

  async function ticketOf(number: string) {
    return eventually(async () => {
      const [row] = await app.t.database.db
        .select({ id: tickets.id })
        .from(tickets)
        .innerJoin(contacts, eq(contacts.id, tickets.contactId))
        .where(and(eq(contacts.number, number), eq(tickets.whatsappId, cloud.connection.id)));
      expect(row).toBeDefined();
      return row.id;
    });
  }

  it("customer media is fetched by id (GET /{media-id}, then the short-lived URL with the bearer) and served", async () => {
    const from = customerPhone();
    const mediaId = app.fake.putMedia(JPEG, "image/jpeg", cloud.phoneNumberId);
    const image = payloads.media("image", { from, mediaId, mimeType: "image/jpeg", caption: "a foto" });
    await cloud.meta.deliver(cloud.meta.message(image, "Bia"));
    const ticketId = await ticketOf(from);
    const stored = await eventually(async () => {
      const [message] = await messagesOf(app.t, admin, ticketId);
      expect(message).toMatchObject({ mediaType: "image", body: "a foto", mediaError: null });
      expect(message.mediaUrl).toBeTruthy();
      return message;
    });
    const file = await app.t.app.inject({ method: "GET", url: `/api/messages/${stored.id}/media`, headers: admin.auth });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(JPEG)).toBe(true);
    const calls = app.fake.requests.filter((r) => r.path === `/${mediaId}` || r.query.mid === mediaId);
    expect(calls.map((r) => [r.method, r.status, r.authorization])).toEqual([
      ["GET", 200, `Bearer ${cloud.accessToken}`],
      ["GET", 200, `Bearer ${cloud.accessToken}`],
    ]);
  });

  it("an expired media id keeps the message with a download error; the retry job fetches it later", async () => {
    const from = customerPhone();
    const doc = payloads.media("document", {
      from,
      mediaId: "9000000000001",
      mimeType: "application/pdf",
      filename: "boleto.pdf",
    });
    await cloud.meta.deliver(cloud.meta.message(doc, "Caio"));
    const ticketId = await ticketOf(from);
    const failed = await eventually(async () => {
      const [message] = await messagesOf(app.t, admin, ticketId);
      expect(message).toMatchObject({ mediaType: "document", mediaError: "ERR_WAPP_DOWNLOAD_MEDIA" });
      return message;
    });
    // Meta has it again (e.g. a transient failure); the retry job, through the live session, recovers it.
    const pdf = Buffer.from("%PDF-1.4\n%zapdesk\n");
    const mediaId = app.fake.putMedia(pdf, "application/pdf", cloud.phoneNumberId);
    await app.t.database.db
      .update(messages)
      .set({ raw: { ...doc, document: { ...(doc.document as object), id: mediaId } }, updatedAt: new Date(0) })
      .where(eq(messages.id, failed.id));
    expect(await app.t.mediaRetry.runOnce()).toBe(1);
    const [recovered] = await messagesOf(app.t, admin, ticketId);
    expect(recovered.mediaError).toBeNull();
  });

  it("agent media is uploaded to /{phone-number-id}/media and sent by id", async () => {
    const from = customerPhone();
    await cloud.meta.deliver(cloud.meta.message(payloads.text({ from, body: "manda a foto" })));
    const ticketId = await ticketOf(from);
    const accepted = await app.t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticketId}`,
      headers: admin.auth,
      payload: { status: "open", userId: admin.id },
    });
    expect(accepted.statusCode).toBe(200);

    const photo = multipart({ body: "segue" }, { name: "foto.jpg", type: "image/jpeg", data: JPEG });
    const res = await app.t.app.inject({
      method: "POST",
      url: `/api/messages/${ticketId}`,
      headers: { ...admin.auth, ...photo.headers },
      payload: photo.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const send = await eventually(() => {
      const found = app.fake.sentMessages(cloud.phoneNumberId).find((b) => b.type === "image" && b.to === from);
      expect(found).toBeDefined();
      return found as { image: { id: string; caption: string } };
    });
    expect(send.image.caption).toBe("segue");
    expect(app.fake.media(send.image.id)?.data.equals(JPEG)).toBe(true);
    const upload = app.fake.requests.find((r) => r.path === `/${cloud.phoneNumberId}/media`);
    expect(upload?.body).toMatchObject({ messaging_product: "whatsapp", type: "image/jpeg", file: { mimetype: "image/jpeg" } });

    const doc = multipart(
      { body: "contrato" },
      { name: "contrato.pdf", type: "application/pdf", data: Buffer.from("%PDF-1.4\n") },
    );
    await app.t.app.inject({
      method: "POST",
      url: `/api/messages/${ticketId}`,
      headers: { ...admin.auth, ...doc.headers },
      payload: doc.payload,
    });
    const document = await eventually(() => {
      const found = app.fake.sentMessages(cloud.phoneNumberId).find((b) => b.type === "document" && b.to === from);
      expect(found).toBeDefined();
      return found as { document: Record<string, unknown> };
    });
    expect(document.document).toMatchObject({ caption: "contrato", filename: "contrato.pdf" });
    const rows = (await messagesOf(app.t, admin, ticketId)).filter((m: Message) => m.fromMe);
    await eventually(async () => {
      const current = await app.t.database.db.select().from(messages).where(eq(messages.ticketId, ticketId));
      expect(current.filter((m) => m.fromMe).every((m) => m.wid?.startsWith("wamid."))).toBe(true);
    });
    expect(rows).toHaveLength(2);
  });

  it.skipIf(skipWithoutFfmpeg)(
    "a recorded voice note is converted and uploaded as OGG audio, sent by id as a voice note (no caption or link)",
    async () => {
      const from = customerPhone();
      await cloud.meta.deliver(cloud.meta.message(payloads.text({ from, body: "manda um áudio" })));
      const ticketId = await ticketOf(from);
      const accepted = await app.t.app.inject({
        method: "PUT",
        url: `/api/tickets/${ticketId}`,
        headers: admin.auth,
        payload: { status: "open", userId: admin.id },
      });
      expect(accepted.statusCode).toBe(200);
      const dir = mkdtempSync(join(tmpdir(), "zapdesk-voice-"));
      const wav = join(dir, "voice.wav");
      execFileSync("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=1", wav]);
      const voice = multipart({ isVoice: "true" }, { name: "voice.wav", type: "audio/wav", data: readFileSync(wav) });
      const sentVoice = await app.t.app.inject({
        method: "POST",
        url: `/api/messages/${ticketId}`,
        headers: { ...admin.auth, ...voice.headers },
        payload: voice.payload,
      });
      expect(sentVoice.statusCode, sentVoice.body).toBe(201);
      const audio = await eventually(() => {
        const found = app.fake.sentMessages(cloud.phoneNumberId).find((b) => b.type === "audio" && b.to === from);
        expect(found).toBeDefined();
        return found as { audio: Record<string, unknown> };
      });
      expect(audio.audio).toEqual({ id: expect.any(String), voice: true });
      expect(app.fake.media(audio.audio.id as string)?.mimeType).toBe("audio/ogg");
      rmSync(dir, { recursive: true, force: true });
    },
  );
});
