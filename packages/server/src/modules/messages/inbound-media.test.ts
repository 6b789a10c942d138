import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { Message, Ticket } from "@zapdesk/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, makeSimulatorConnection, ticketMessages } from "../../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import type { InboundMessage } from "../../channels/channel.js";

let t: TestApp;
let admin: TestUser;
const CAP = 1024;

beforeAll(async () => {
  t = await createTestApp({ config: { mediaMaxBytes: CAP } });
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

function imageMessage(from: string, wid: string, media: InboundMessage["media"]): InboundMessage {
  return {
    wid,
    chat: from,
    isGroup: false,
    sender: { number: from },
    fromMe: false,
    timestamp: new Date(),
    type: "image",
    body: "",
    media,
  };
}

/** Every file in the local media folder. */
async function storedFiles(): Promise<string[]> {
  const all = await readdir(join(t.config.dataDir, "media"), { recursive: true, withFileTypes: true }).catch(() => []);
  return all.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

/** The one message of a customer's ticket, as the API shows it. */
async function shown(from: string): Promise<Message> {
  const list = await t.app.inject({
    method: "GET",
    url: "/api/tickets",
    headers: admin.auth,
    query: { showAll: "true", searchParam: from },
  });
  const ticket = (list.json() as { tickets: Ticket[] }).tickets[0];
  const history = await ticketMessages(t, admin, ticket.id);
  expect(history.messages).toHaveLength(1);
  return history.messages[0];
}

describe("inbound media", () => {
  it("is stored first and downloaded after, outside the connection's ordered events", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const from = customerNumber();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const png = Buffer.from(
      "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d6f2d20000000049454e44ae426082",
      "hex",
    );
    await t.pipeline.onMessage(
      connection.id,
      imageMessage(from, "MEDIA-SLOW", {
        mimetype: "image/png",
        size: png.length,
        download: async () => {
          await gate;
          return Readable.from([png]);
        },
      }),
    );
    // The message is there while its media is still on its way.
    expect(await shown(from)).toMatchObject({ mediaType: "image", mediaError: "MEDIA_PENDING", mediaUrl: null });
    release();
    await t.pipeline.idle();
    const stored = await shown(from);
    expect(stored).toMatchObject({ mediaError: null });
    expect(stored.mediaUrl).toMatch(/\/media$/);
  });

  it("over the cap by its declared size is never downloaded; a sender who lied about the size is caught after", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const declared = customerNumber();
    let downloads = 0;
    await t.pipeline.onMessage(
      connection.id,
      imageMessage(declared, "MEDIA-BIG", {
        mimetype: "video/mp4",
        filename: "huge.mp4",
        size: CAP + 1,
        download: async () => {
          downloads += 1;
          return Readable.from([Buffer.alloc(CAP + 1)]);
        },
      }),
    );
    await t.pipeline.idle();
    expect(downloads).toBe(0);
    expect(await shown(declared)).toMatchObject({ mediaError: "ERR_MEDIA_TOO_LARGE", mediaName: "huge.mp4" });

    // The liar's file is streamed to storage and stopped at the cap: never read whole, nothing kept.
    const liar = customerNumber();
    const before = await storedFiles();
    let read = 0;
    let stopped = false;
    const endless = new Readable({
      highWaterMark: 256,
      read() {
        read += 256;
        this.push(Buffer.alloc(256));
      },
      destroy(error, callback) {
        stopped = true;
        callback(error);
      },
    });
    await t.pipeline.onMessage(
      connection.id,
      imageMessage(liar, "MEDIA-LIE", { mimetype: "image/png", size: 10, download: async () => endless }),
    );
    await t.pipeline.idle();
    expect(await shown(liar)).toMatchObject({ mediaError: "ERR_MEDIA_TOO_LARGE", mediaUrl: null });
    expect(stopped).toBe(true);
    expect(read).toBeLessThan(CAP * 4);
    expect(await storedFiles()).toEqual(before);
  });

  it("that fails to download keeps the message with a retryable error", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const from = customerNumber();
    await t.pipeline.onMessage(
      connection.id,
      imageMessage(from, "MEDIA-GONE", {
        mimetype: "image/jpeg",
        size: 100,
        download: async () => {
          throw new Error("410 gone");
        },
      }),
    );
    await t.pipeline.idle();
    expect(await shown(from)).toMatchObject({ mediaError: "ERR_WAPP_DOWNLOAD_MEDIA" });
  });
});
