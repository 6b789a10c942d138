import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encryptedStream, proto, type WAMessage } from "@whiskeysockets/baileys";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../test/channel-support.js";
import { createMediaStorage, type MediaStorage, MediaTooLargeError, readStored } from "../../media/storage.js";
import { downloadStream } from "./baileys-media.js";

/**
 * Baileys' real media download (fetch, AES-CBC decrypt as it streams) against a local server
 * holding files encrypted by Baileys itself: no WhatsApp, no network.
 */
let server: Server;
let base: string;
const files = new Map<string, Buffer>();
const served = new Map<string, { written: number; finished: boolean }>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const file = files.get(req.url ?? "");
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    const progress = { written: 0, finished: false };
    served.set(req.url ?? "", progress);
    res.writeHead(200, { "content-length": String(file.length) });
    // Written in chunks with backpressure, as a CDN streams: how far it got shows how much the client read.
    let offset = 0;
    const pump = () => {
      while (offset < file.length) {
        const chunk = file.subarray(offset, offset + 64 * 1024);
        offset += chunk.length;
        progress.written = offset;
        if (!res.write(chunk)) {
          res.once("drain", pump);
          return;
        }
      }
      res.end(() => {
        progress.finished = true;
      });
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A document message as a sender's phone makes it: Baileys encrypts, the CDN serves; `declared` is what it claims. */
async function uploaded(plain: Buffer, declared: number): Promise<WAMessage> {
  const encrypted = await encryptedStream(plain, "document");
  const path = `/d/${randomBytes(6).toString("hex")}`;
  files.set(path, await readFile(encrypted.encFilePath));
  await rm(encrypted.encFilePath, { force: true });
  return {
    key: { remoteJid: "5511999990001@s.whatsapp.net", fromMe: false, id: `3AMEDIA${path.slice(3)}` },
    message: proto.Message.fromObject({
      documentMessage: { url: `${base}${path}`, mediaKey: encrypted.mediaKey, mimetype: "application/pdf", fileLength: declared },
    }),
  };
}

const logger = silentLogger() as never;
let root: string;
let storage: MediaStorage;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "zapdesk-baileys-media-"));
  storage = createMediaStorage(root);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe("inbound media download", () => {
  it("decrypts an honest file whole, streaming it to storage", async () => {
    const plain = randomBytes(150_000);
    const message = await uploaded(plain, plain.length);
    const saved = await storage.saveStream(await downloadStream(message, undefined, logger), "pdf", { maxBytes: 1024 * 1024 });
    expect(saved.size).toBe(plain.length);
    expect(await readStored(storage, saved.path)).toEqual(plain);
  });

  it("stops reading a file bigger than it claimed once past the cap, and keeps none of it", async () => {
    const cap = 256 * 1024;
    const plain = randomBytes(24 * 1024 * 1024);
    const message = await uploaded(plain, 1_000);
    await expect(
      storage.saveStream(await downloadStream(message, undefined, logger), "pdf", { maxBytes: cap }),
    ).rejects.toBeInstanceOf(MediaTooLargeError);
    expect(await readdir(root, { recursive: true, withFileTypes: true }).then((all) => all.filter((e) => e.isFile()))).toEqual(
      [],
    );
    // The sender's bytes stay on the server: the client stopped pulling them.
    await new Promise((r) => setTimeout(r, 300));
    const progress = [...served.values()].at(-1)!;
    expect(progress.finished).toBe(false);
    expect(progress.written).toBeLessThan(plain.length / 2);
  });
});
