import type { Readable } from "node:stream";
import { downloadMediaMessage, type WAMessage } from "@whiskeysockets/baileys";
import type { BaileysLogger } from "./baileys-logger.js";

/** What a download needs from the live socket: asking the sender's phone to upload expired media again. */
export interface MediaSocket {
  updateMediaMessage(message: WAMessage): Promise<WAMessage>;
}

export type MediaDownload = (
  message: WAMessage,
  socket: MediaSocket | undefined,
  logger: BaileysLogger,
  maxBytes: number,
) => Promise<Buffer>;

/**
 * Read a stream into memory, but never more than `maxBytes + 1`: past the cap the stream is
 * destroyed and what was read so far comes back, one byte over the cap, so that the caller's own
 * size check marks the media too large. The declared size (fileLength) is checked before any
 * download; this guards against a sender whose file is bigger than it says.
 */
export async function readCapped(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      const room = maxBytes + 1 - total;
      chunks.push(buffer.length > room ? buffer.subarray(0, room) : buffer);
      total += Math.min(buffer.length, room);
      if (total > maxBytes) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks, total);
}

/** Baileys' own download (decrypting as it streams), with a re-upload request when the media expired. */
export const downloadCapped: MediaDownload = async (message, socket, logger, maxBytes) => {
  const stream = await downloadMediaMessage(
    message,
    "stream",
    {},
    socket ? { reuploadRequest: (m) => socket.updateMediaMessage(m), logger } : undefined,
  );
  return readCapped(stream, maxBytes);
};
