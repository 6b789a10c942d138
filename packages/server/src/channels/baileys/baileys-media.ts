import type { Readable } from "node:stream";
import { downloadMediaMessage, type WAMessage } from "@whiskeysockets/baileys";
import type { BaileysLogger } from "./baileys-logger.js";

/** What a download needs from the live socket: asking the sender's phone to upload expired media again. */
export interface MediaSocket {
  updateMediaMessage(message: WAMessage): Promise<WAMessage>;
}

export type MediaDownload = (message: WAMessage, socket: MediaSocket | undefined, logger: BaileysLogger) => Promise<Readable>;

/**
 * Baileys' own download, decrypting as it streams, with a re-upload request when the media
 * expired. Nothing is read here: storage pulls the stream and stops it past the size cap, so a
 * sender whose file is bigger than it declared never fills memory or disk.
 */
export const downloadStream: MediaDownload = (message, socket, logger) =>
  downloadMediaMessage(
    message,
    "stream",
    {},
    socket ? { reuploadRequest: (m) => socket.updateMediaMessage(m), logger } : undefined,
  );
