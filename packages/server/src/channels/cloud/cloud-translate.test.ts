import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import * as build from "../../../test/graph-fake/payloads.js";
import { translateCall } from "./cloud-calls.js";
import {
  accountErrorsOf,
  type CloudValue,
  changesOf,
  mediaIdOf,
  translateMessage,
  translateStatus,
  type WebhookPayload,
  withChosenWid,
} from "./cloud-translate.js";

const business = { phoneNumberId: "106540352242922", businessAccountId: "102290129340398", displayPhoneNumber: "15550783881" };
const from = "16505551234";

/** The value of the single change of a built payload. */
function changeValue(payload: unknown): CloudValue {
  const [change] = changesOf(payload as WebhookPayload);
  expect(change.phoneNumberId).toBe(business.phoneNumberId);
  return change.value;
}

function translate(message: build.WebhookMessage, name = "Sheena Nelson") {
  const value = changeValue(build.inbound(business, message, name));
  const downloads: string[] = [];
  const result = translateMessage(value.messages![0], value.contacts ?? [], async (id) => {
    downloads.push(id);
    return Readable.from([Buffer.from(id)]);
  });
  return { result, downloads };
}

function stored(message: build.WebhookMessage) {
  const { result } = translate(message);
  if (!("message" in result)) throw new Error(`not a message: ${JSON.stringify(result)}`);
  return result.message;
}

describe("Cloud API webhook translation", () => {
  it("a text with its sender's profile name, time, and the message it replies to", () => {
    const message = build.text({
      from,
      body: "Does it come in another color?",
      at: new Date("2025-06-08T21:39:43Z"),
      replyTo: { from: "15550783881", id: "wamid.quoted" },
    });
    expect(stored(message)).toMatchObject({
      wid: message.id,
      chat: from,
      isGroup: false,
      fromMe: false,
      sender: { number: from, name: "Sheena Nelson" },
      timestamp: new Date("2025-06-08T21:39:43Z"),
      type: "chat",
      body: "Does it come in another color?",
      quotedWid: "wamid.quoted",
      raw: message,
    });
  });

  it("media of every kind is downloaded by its id, with caption and file name", async () => {
    for (const kind of ["image", "video", "audio", "document", "sticker"] as const) {
      const message = build.media(kind, {
        from,
        mediaId: `m-${kind}`,
        mimeType: "application/x-test",
        caption: kind === "image" ? "look" : undefined,
        filename: kind === "document" ? "invoice.pdf" : undefined,
        voice: kind === "audio",
      });
      const result = stored(message);
      expect(result.type).toBe(kind);
      expect(result.body).toBe(kind === "image" ? "look" : "");
      expect(result.media?.mimetype).toBe("application/x-test");
      expect(result.media?.filename).toBe(kind === "document" ? "invoice.pdf" : undefined);
      expect((await buffer(await result.media!.download())).toString()).toBe(`m-${kind}`);
      expect(mediaIdOf(result.raw)).toBe(`m-${kind}`);
    }
    expect(mediaIdOf(build.text({ from, body: "x" }))).toBeUndefined();
  });

  it("location, shared contacts, quick-reply buttons and interactive list/button replies", () => {
    expect(stored(build.location({ from, latitude: -23.5, longitude: -46.6, name: "Loja", address: "Rua A, 1" }))).toMatchObject({
      type: "location",
      location: { latitude: -23.5, longitude: -46.6, description: "Loja\nRua A, 1" },
    });
    const vcard = stored(build.contacts({ from, name: "Ana Lima", phone: "+55 11 98888-0000", waId: "5511988880000" })).vcard;
    expect(vcard).toContain("FN:Ana Lima");
    expect(vcard).toContain("TEL;type=CELL;waid=5511988880000:+55 11 98888-0000");
    expect(stored(build.button({ from, text: "Sim", payload: "YES" }))).toMatchObject({ type: "chat", body: "Sim" });
    expect(stored(build.buttonReply({ from, replyId: "b1", title: "Trocar" }))).toMatchObject({ type: "chat", body: "Trocar" });
    expect(stored(build.listReply({ from, replyId: "l1", title: "Boleto", description: "2ª via" })).body).toBe("Boleto\n2ª via");
  });

  it("unsupported and unknown types are kept with their type as the body", () => {
    expect(stored(build.unsupported({ from }))).toMatchObject({ type: "unsupported", body: "unsupported" });
    const order = { ...build.text({ from, body: "" }), type: "order", order: { catalog_id: "1" } };
    expect(stored(order)).toMatchObject({ type: "unsupported", body: "order" });
  });

  it("a reaction updates its target; a withdrawn one (no emoji) clears it", () => {
    const { result } = translate(build.reaction({ from, messageId: "wamid.ours", emoji: "😀" }));
    expect(result).toEqual({
      update: { wid: "wamid.ours", chat: from, reaction: { by: from, name: "Sheena Nelson", emoji: "😀", fromMe: false } },
    });
    const withdrawn = translate(build.reaction({ from, messageId: "wamid.ours" })).result;
    expect(withdrawn).toMatchObject({ update: { reaction: { emoji: "" } } });
  });

  it("the contact is keyed by the sender's wa_id when it differs from the number in `from`", () => {
    const message = build.text({ from: "5511988887777", body: "oi" });
    const value = changeValue(build.inbound(business, message, "Rita"));
    value.contacts = [{ profile: { name: "Rita" }, wa_id: "551188887777" }];
    const result = translateMessage(value.messages![0], value.contacts, async () => Readable.from([]));
    expect(result).toMatchObject({ message: { chat: "551188887777", sender: { number: "551188887777", name: "Rita" } } });
  });

  it("a sender known only by a BSUID (issue 18) is keyed by it, never by a made-up number", () => {
    const message = { ...build.text({ from, body: "hi" }), from: undefined, from_user_id: "US.13491208655302741918" };
    expect(
      translateMessage(message as never, [{ user_id: "US.13491208655302741918" }], async () => Readable.from([])),
    ).toMatchObject({ message: { chat: "US.13491208655302741918", sender: { number: "US.13491208655302741918" } } });
  });

  it("statuses: sent 1, delivered 2, read 3, played 4, failed -1 with Meta's code and title", () => {
    const value = changeValue(
      build.statuses(business, [
        { id: "w1", status: "sent", recipientId: from },
        { id: "w1", status: "delivered", recipientId: from },
        { id: "w1", status: "read", recipientId: from },
        {
          id: "w2",
          status: "failed",
          recipientId: from,
          errors: [{ code: 131047, title: "Re-engagement message", details: "More than 24 hours have passed" }],
        },
      ]),
    );
    expect(value.statuses!.map(translateStatus)).toEqual([
      { wid: "w1", chat: from, fromMe: true, ack: 1 },
      { wid: "w1", chat: from, fromMe: true, ack: 2 },
      { wid: "w1", chat: from, fromMe: true, ack: 3 },
      {
        wid: "w2",
        chat: from,
        fromMe: true,
        ack: -1,
        error: { code: "131047", title: "Re-engagement message: More than 24 hours have passed" },
      },
    ]);
    expect(translateStatus({ id: "w3", status: "played", recipient_id: from })?.ack).toBe(4);
    expect(translateStatus({ id: "w3", status: "deleted", recipient_id: from })).toBeUndefined();
  });

  it("a WhatsApp Flow's answer shows the answered fields, without the flow token", () => {
    const answer = build.flowReply({
      from,
      flowToken: "zapdesk-survey-7",
      response: { nome: "Ana", plano: "Pro", canais: ["email", "whatsapp"], aceite: true },
      replyTo: { from: business.displayPhoneNumber, id: "wamid.flow" },
    });
    expect(stored(answer)).toMatchObject({
      type: "chat",
      body: "nome: Ana\nplano: Pro\ncanais: email, whatsapp\naceite: true",
      quotedWid: "wamid.flow",
      raw: answer,
    });
    const garbled = {
      ...answer,
      interactive: { type: "nfm_reply", nfm_reply: { name: "flow", body: "Sent", response_json: "{oops" } },
    };
    expect(stored(garbled as never).body).toBe("Sent\n{oops");
  });

  it("an inbound voice note keeps voice: true in what is stored", () => {
    const voice = build.media("audio", { from, mediaId: "m-voice", mimeType: "audio/ogg; codecs=opus", voice: true });
    const message = stored(voice);
    expect(message.type).toBe("audio");
    expect((message.raw as { audio: { voice: boolean } }).audio.voice).toBe(true);
  });

  it("a status names our own id (biz_opaque_callback_data) when the send carried it", () => {
    const value = changeValue(
      build.statuses(business, [{ id: "wamid.lost", status: "delivered", recipientId: from, bizOpaqueCallbackData: "3EB0ABC" }]),
    );
    const status = value.statuses![0];
    expect(translateStatus(status)).not.toHaveProperty("chosenWid");
    expect(withChosenWid(translateStatus(status)!, status)).toEqual({
      wid: "wamid.lost",
      chat: from,
      chosenWid: "3EB0ABC",
      fromMe: true,
      ack: 2,
    });
  });

  it("account-level errors (value.errors) read as Meta's code, title and details", () => {
    const value = changeValue(
      build.accountErrors(business, [{ code: 131031, title: "Business Account locked", details: "The account is locked" }]),
    );
    expect(accountErrorsOf(value)).toEqual(["Meta 131031: Business Account locked: The account is locked"]);
    expect(accountErrorsOf({})).toEqual([]);
  });

  it("calls: the customer's call ringing, then its end, answered or missed; the business's own calls are not stored", () => {
    const payload = build.calls(business, [
      { id: "wacid.1", from, to: business.displayPhoneNumber, event: "connect", at: new Date("2026-11-02T10:00:00Z") },
      { id: "wacid.1", from, to: business.displayPhoneNumber, event: "terminate", status: "FAILED" },
      { id: "wacid.2", from, to: business.displayPhoneNumber, event: "terminate", status: "COMPLETED", durationSeconds: 65 },
    ]);
    const [change] = changesOf(payload as WebhookPayload);
    expect(change.field).toBe("calls");
    const [ringing, missed, answered] = change.value.calls!.map(translateCall);
    expect(ringing).toEqual({
      callId: "wacid.1",
      from,
      isGroup: false,
      isVideo: false,
      timestamp: new Date("2026-11-02T10:00:00Z"),
    });
    expect(missed).toMatchObject({ callId: "wacid.1", ended: { answered: false } });
    expect(answered).toMatchObject({ callId: "wacid.2", ended: { answered: true, durationSeconds: 65 } });
    expect(translateCall({ ...change.value.calls![0], direction: "BUSINESS_INITIATED" })).toBeUndefined();
  });

  it("ignores fields other than messages and garbage shapes", () => {
    expect(
      changesOf({ entry: [{ changes: [{ field: "account_update", value: { metadata: { phone_number_id: "1" } } }] }] }),
    ).toEqual([]);
    expect(changesOf({ entry: "nope" } as never)).toEqual([]);
    expect(changesOf(null as never)).toEqual([]);
  });
});
