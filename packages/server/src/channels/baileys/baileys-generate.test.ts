import { Readable } from "node:stream";
import { generateWAMessage, type MessageGenerationOptions, proto } from "@whiskeysockets/baileys";
import { describe, expect, it } from "vitest";
import type { OutboundMessage } from "../channel.js";
import { messageKey, quotedMessage, toMessageContent } from "./baileys-outbound.js";
import { toInboundMessage, toProtocolUpdate, toRaw } from "./baileys-translate.js";

/**
 * What the adapter hands sendMessage, run through Baileys' own message generator (the step
 * before encryption): proof that WhatsApp gets the message we mean, without a network.
 */
const options: MessageGenerationOptions = {
  userJid: "5511999990000@s.whatsapp.net",
  upload: async () => ({ mediaUrl: "https://mmg.whatsapp.net/v/t62/x", directPath: "/v/t62/x" }),
};
const generate = (jid: string, message: OutboundMessage, extra: Partial<MessageGenerationOptions> = {}) =>
  generateWAMessage(jid, toMessageContent(message), { ...options, ...extra });
const noDownload = async () => Readable.from([]);

describe("outbound content through Baileys' generator", () => {
  it("a quoted group reply carries the quoted id and participant, and reads back as our echo", async () => {
    const original = {
      key: { remoteJid: "120363041234567890@g.us", participant: "5511999990003@s.whatsapp.net", fromMe: false, id: "3AQUOTED" },
      message: proto.Message.fromObject({ conversation: "can you help?" }),
      messageTimestamp: 1_700_000_000,
    };
    const stored = JSON.parse(JSON.stringify(toRaw(original)));
    const quoted = quotedMessage(
      { wid: "3AQUOTED", fromMe: false, body: "can you help?", raw: stored },
      "120363041234567890",
      true,
    );
    const sent = await generate(
      "120363041234567890@g.us",
      { to: "120363041234567890", isGroup: true, body: "sure" },
      { quoted, messageId: "3EB0MINE" },
    );

    const context = sent.message?.extendedTextMessage?.contextInfo;
    expect(context?.stanzaId).toBe("3AQUOTED");
    expect(context?.participant).toBe("5511999990003@s.whatsapp.net");
    expect(context?.quotedMessage?.conversation).toBe("can you help?");

    const echo = toInboundMessage(
      { key: sent.key, message: sent.message, messageTimestamp: sent.messageTimestamp },
      { download: noDownload },
    );
    expect(echo).toMatchObject({
      wid: "3EB0MINE",
      fromMe: true,
      chat: "120363041234567890",
      isGroup: true,
      body: "sure",
      quotedWid: "3AQUOTED",
    });
  });

  it("a voice note ffmpeg could not convert is still ptt in its own type; a document keeps its name and caption", async () => {
    // What production sends after a conversion is proven through the outbox (test/baileys/app-outbox.test.ts).
    const voice = await generate("5511999990001@s.whatsapp.net", {
      to: "5511999990001",
      isGroup: false,
      body: "",
      media: { data: Buffer.from("ID3-not-converted"), mimetype: "audio/mpeg", filename: "voice.mp3", asVoice: true },
    });
    expect(voice.message?.audioMessage).toMatchObject({ ptt: true, mimetype: "audio/mpeg", directPath: "/v/t62/x" });
    expect(toInboundMessage({ key: voice.key, message: voice.message }, { download: noDownload })).toMatchObject({
      type: "audio",
      fromMe: true,
    });

    const doc = await generate("5511999990001@s.whatsapp.net", {
      to: "5511999990001",
      isGroup: false,
      body: "the invoice",
      media: { data: Buffer.from("%PDF-1.4"), mimetype: "application/pdf", filename: "invoice.pdf" },
    });
    expect(doc.message?.documentMessage).toMatchObject({
      fileName: "invoice.pdf",
      caption: "the invoice",
      mimetype: "application/pdf",
    });
  });

  it("delete for everyone is a REVOKE of the stored key, which reads back as a revoke update", async () => {
    const key = messageKey({ chat: "5511999990001", isGroup: false, wid: "3EB0GONE", fromMe: true });
    const revoke = await generateWAMessage("5511999990001@s.whatsapp.net", { delete: key }, options);
    expect(revoke.message?.protocolMessage).toMatchObject({
      type: proto.Message.ProtocolMessage.Type.REVOKE,
      key: { id: "3EB0GONE" },
    });
    expect(toProtocolUpdate({ key: revoke.key, message: revoke.message })).toEqual({
      wid: "3EB0GONE",
      chat: "5511999990001",
      fromMe: true,
      revoked: true,
    });
  });
});
