import { type AnyMessageContent, proto, type WAMessage, type WAMessageKey } from "@whiskeysockets/baileys";
import { voiceSeconds, voiceWaveform } from "../../media/voice.js";
import { readOpus } from "../../media/voice-ogg.js";
import { type ChatNumber, type OutboundMessage, SendOutcomeUnknown, type SentMessage } from "../channel.js";
import { numberToJid } from "./baileys-jid.js";
import { fromRaw, isBaileysRaw } from "./baileys-translate.js";

/** The mimetype WhatsApp's apps give their voice notes; without the codec some clients never play them. */
export const VOICE_MIMETYPE = "audio/ogg; codecs=opus";

/** What sendMessage gets for an outbound message: text, or media with the body as caption. */
export function toMessageContent(message: OutboundMessage): AnyMessageContent {
  const media = message.media;
  if (!media) return { text: message.body };
  const caption = message.body || undefined;
  const major = media.mimetype.split("/")[0];
  // WhatsApp animates only mp4 "gifs"; a real GIF goes as a document so it arrives intact.
  if (major === "image" && media.mimetype !== "image/gif") return { image: media.data, mimetype: media.mimetype, caption };
  if (major === "video") return { video: media.data, mimetype: media.mimetype, caption };
  if (major === "audio") {
    // Voice notes are converted to Ogg/Opus on upload; the codec must be named for WhatsApp to play them.
    const voice = !!media.asVoice && readOpus(media.data) !== undefined;
    return { audio: media.data, mimetype: voice ? VOICE_MIMETYPE : media.mimetype, ptt: !!media.asVoice };
  }
  return { document: media.data, mimetype: media.mimetype, fileName: media.filename, caption };
}

/**
 * The content as sent: a voice note also carries its length and the waveform its bubble draws
 * (Baileys could only compute the waveform with an optional package we do not install).
 */
export async function toSendable(message: OutboundMessage): Promise<AnyMessageContent> {
  const content = toMessageContent(message);
  if (!("audio" in content) || content.mimetype !== VOICE_MIMETYPE || !message.media) return content;
  const data = message.media.data;
  const seconds = voiceSeconds(data);
  const waveform = await voiceWaveform(data);
  return { ...content, ...(seconds ? { seconds } : {}), ...(waveform ? { waveform } : {}) };
}

/**
 * The message a reply quotes. The stored provider data is the real message (with the group
 * participant and media); without it a plain-text stand-in with the right key still threads.
 */
export function quotedMessage(quoted: NonNullable<OutboundMessage["quoted"]>, to: ChatNumber, isGroup: boolean): WAMessage {
  if (isBaileysRaw(quoted.raw)) return fromRaw(quoted.raw);
  return {
    key: { remoteJid: numberToJid(to, isGroup), id: quoted.wid, fromMe: quoted.fromMe },
    message: proto.Message.fromObject({ conversation: quoted.body }),
  };
}

/** The key of a stored message, for deletes and read receipts. */
export function messageKey(target: {
  chat: ChatNumber;
  isGroup: boolean;
  wid: string;
  fromMe: boolean;
  raw?: unknown;
}): WAMessageKey {
  if (isBaileysRaw(target.raw) && target.raw.key.id === target.wid) return fromRaw(target.raw).key;
  return { remoteJid: numberToJid(target.chat, target.isGroup), id: target.wid, fromMe: target.fromMe };
}

/**
 * How long one send may take. Past Baileys' own query timeout (60 s: a device list or pre-key
 * query that never came back fails first, as a plain error the outbox retries), so only a send
 * stuck elsewhere (a socket gone silent mid-write, an upload that never ends) reaches it. Our
 * message id was chosen before sending and Baileys may have written the stanza, so it ends as an
 * unknown outcome: never resent by itself (a second copy, or another reach-out while the number
 * is restricted), settled by the delivery receipt WhatsApp sends for that id.
 */
export const BAILEYS_SEND_TIMEOUT_MS = 120_000;

/** The send's answer within `ms`, or an unknown outcome for `wid` that still carries the send (a late answer settles it). */
export function withinTimeout(work: Promise<SentMessage>, ms: number, wid: string | undefined): Promise<SentMessage> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const reason = `WhatsApp Web did not answer within ${Math.round(ms / 1000)} s`;
      reject(
        new SendOutcomeUnknown(
          reason,
          wid,
          work.catch(() => undefined),
        ),
      );
    }, ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
