import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { AppError } from "../../lib/app-error.js";
import type { ChannelContext, ChannelSession, OutboundMessage, SentMessage } from "../channel.js";
import { type Phone, recordOutbound, recordRead, rememberMessage } from "./simulator-phone.js";

export interface SimulatorTiming {
  /** How long the QR shows before the simulated phone "scans" it (0: pair at once, inside start()). */
  qrDelayMs: number;
  now: () => Date;
}

/** WhatsApp-looking message ids (the Web client's start with 3EB0). */
export const newWid = () => `3EB0${randomBytes(9).toString("hex").toUpperCase()}`;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());

/** Raw data kept with messages so that media can be fetched again by wid. */
export interface SimulatorRaw {
  simulator: { wid: string };
}

export function isSimulatorRaw(raw: unknown): raw is SimulatorRaw {
  return typeof raw === "object" && raw !== null && typeof (raw as SimulatorRaw).simulator?.wid === "string";
}

/**
 * One session of a simulated phone: OPENING, a QR for a moment when not paired yet, PAIRING,
 * then CONNECTED, like a real phone scanning the code.
 */
export function createSimulatorSession(phone: Phone, context: ChannelContext, timing: SimulatorTiming): ChannelSession {
  const { handlers, logger, whatsappId } = context;
  let active = false;

  const online = () => {
    if (!active || phone.live !== handlers) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
  };

  const goOffline = () => {
    active = false;
    if (phone.live === handlers) {
      phone.live = undefined;
      phone.drop = undefined;
    }
  };

  async function connect() {
    if (!phone.paired) {
      handlers.onQr(`zapdesk-simulator:${whatsappId}:${randomBytes(12).toString("base64url")}`);
      if (timing.qrDelayMs > 0) await sleep(timing.qrDelayMs);
      if (!active) return;
      handlers.onStatus("PAIRING");
      phone.paired = true;
    }
    phone.live = handlers;
    phone.drop = () => {
      goOffline();
      handlers.onClosed({ reason: "dropped", error: "simulated connection loss" });
    };
    handlers.onStatus("CONNECTED");
  }

  return {
    async start() {
      active = true;
      handlers.onStatus("OPENING");
      if (timing.qrDelayMs === 0) await connect();
      else
        connect().catch((error) => {
          logger.error({ err: error, whatsappId }, "simulator failed to connect");
          goOffline();
          handlers.onClosed({ reason: "dropped", error: String(error) });
        });
    },
    async stop() {
      goOffline();
    },
    async logout() {
      goOffline();
      phone.paired = false;
    },
    async send(message: OutboundMessage): Promise<SentMessage> {
      online();
      const wid = message.id ?? newWid();
      const timestamp = timing.now();
      const media = message.media;
      recordOutbound(phone, {
        wid,
        to: message.to,
        isGroup: message.isGroup,
        body: message.body,
        media: media && {
          mimetype: media.mimetype,
          filename: media.filename,
          size: media.data.length,
          asVoice: !!media.asVoice,
        },
        quotedWid: message.quoted?.wid,
        timestamp: timestamp.toISOString(),
        ack: 1,
        deleted: false,
      });
      rememberMessage(phone, wid, { chat: message.to, isGroup: message.isGroup, fromMe: true });
      const raw: SimulatorRaw = { simulator: { wid } };
      // Like WhatsApp Web: the send's answer is the server's acceptance, no separate ack event follows.
      return { wid, timestamp, raw, ack: 1 };
    },
    async deleteMessage(target) {
      online();
      const record = phone.outbound.find((m) => m.wid === target.wid);
      if (record) record.deleted = true;
    },
    async markRead(target) {
      online();
      recordRead(phone, { chat: target.chat, wids: [...target.wids], at: timing.now() });
    },
    async checkNumber(number) {
      online();
      const digits = number.replace(/\D/g, "");
      if (digits.length < 8 || digits.length > 15) throw new AppError("ERR_WAPP_INVALID_CONTACT");
      return digits;
    },
    async profilePictureUrl() {
      return undefined;
    },
    async listContacts() {
      online();
      return [...phone.customers].map(([number, name]) => ({ number, name: name || number }));
    },
    async rejectCall(call) {
      online();
      phone.rejectedCalls.push(call.callId);
    },
    async sendPresence(target) {
      online();
      phone.presence.set(target.chat, target.state);
    },
    async downloadMedia(raw) {
      const data = isSimulatorRaw(raw) ? phone.media.get(raw.simulator.wid) : undefined;
      if (!data) throw new AppError("ERR_WAPP_DOWNLOAD_MEDIA");
      return Readable.from([data]);
    },
  };
}
