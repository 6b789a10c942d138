import { Readable } from "node:stream";
import { proto, type WAMessage } from "@whiskeysockets/baileys";
import { describe, expect, it } from "vitest";
import { toInboundMessage } from "./baileys-translate.js";

/**
 * What customers send besides text and media, as real proto objects (encoded and decoded, the way
 * they come off the wire), through the adapter's translation: nothing a customer wrote is dropped.
 */
let n = 0;
function received(content: proto.IMessage, key: Partial<WAMessage["key"]> = {}): WAMessage {
  n += 1;
  const wire = proto.Message.encode(proto.Message.fromObject(content)).finish();
  return {
    key: { remoteJid: "5511999990001@s.whatsapp.net", fromMe: false, id: `3ATYPES${n}`, ...key },
    messageTimestamp: 1_700_000_000,
    pushName: "Ana",
    message: proto.Message.decode(wire),
  };
}
const noDownload = async () => Readable.from([]);
const translate = (content: proto.IMessage) => toInboundMessage(received(content), { download: noDownload });

describe("replies, polls and the rest become readable text", () => {
  it("button, list, template and native-flow replies read as what the customer picked", () => {
    expect(translate({ buttonsResponseMessage: { selectedButtonId: "b1", selectedDisplayText: "Yes, confirm" } })).toMatchObject({
      type: "chat",
      body: "Yes, confirm",
    });
    expect(
      translate({
        listResponseMessage: { title: "Delivery", description: "Tomorrow 9-12", singleSelectReply: { selectedRowId: "r2" } },
      }),
    ).toMatchObject({ type: "chat", body: "Delivery\nTomorrow 9-12" });
    expect(translate({ templateButtonReplyMessage: { selectedId: "t1", selectedDisplayText: "Track order" } })).toMatchObject({
      body: "Track order",
    });
    expect(
      translate({
        interactiveResponseMessage: {
          body: { text: "Book a visit" },
          nativeFlowResponseMessage: { name: "address_message", paramsJson: '{"city":"Recife","flow_token":"x"}', version: 1 },
        },
      }),
    ).toMatchObject({ type: "chat", body: "Book a visit\ncity: Recife" });
  });

  it("polls (every version) list their options; a vote, which this device cannot decrypt, is an unsupported line", () => {
    const options = [{ optionName: "Morning" }, { optionName: "Afternoon" }];
    for (const type of ["pollCreationMessage", "pollCreationMessageV2", "pollCreationMessageV3"] as const) {
      expect(translate({ [type]: { name: "When?", options, selectableOptionsCount: 1 } })).toMatchObject({
        type: "chat",
        body: "📊 When?\n○ Morning\n○ Afternoon",
      });
    }
    expect(
      translate({ pollUpdateMessage: { pollCreationMessageKey: { id: "3APOLL" }, vote: { encPayload: Buffer.from([1]) } } }),
    ).toMatchObject({ type: "unsupported", body: "pollUpdate" });
  });

  it("events, group invites, orders and products keep their details", () => {
    expect(
      translate({
        eventMessage: {
          name: "Open day",
          description: "Bring an ID",
          startTime: 1_767_261_600,
          location: { name: "Main store" },
        },
      }),
    ).toMatchObject({ body: "📅 Open day\nBring an ID\n2026-01-01 10:00\nMain store" });
    expect(
      translate({ groupInviteMessage: { groupJid: "120363@g.us", groupName: "VIP", inviteCode: "AbC123", caption: "join us" } }),
    ).toMatchObject({ body: "👥 VIP\njoin us\nhttps://chat.whatsapp.com/AbC123" });
    expect(
      translate({
        orderMessage: {
          orderId: "77",
          orderTitle: "Order 77",
          itemCount: 3,
          message: "for Friday",
          totalAmount1000: 129_900,
          totalCurrencyCode: "BRL",
        },
      }),
    ).toMatchObject({ body: "🛒 Order 77 (3)\nfor Friday\nBRL 129.90" });
    expect(
      translate({
        productMessage: {
          product: { productId: "p1", title: "Blue mug", priceAmount1000: 35_000, currencyCode: "BRL", url: "https://shop/p1" },
          businessOwnerJid: "5511999990000@s.whatsapp.net",
        },
      }),
    ).toMatchObject({ body: "🛍️ Blue mug\nBRL 35.00\nhttps://shop/p1" });
  });

  it("view-once media is kept when this device got its keys, otherwise noted as view-once", () => {
    const withKeys = translate({
      viewOnceMessageV2: {
        message: {
          imageMessage: {
            mimetype: "image/jpeg",
            caption: "once",
            mediaKey: Buffer.alloc(32, 1),
            directPath: "/v/x",
            viewOnce: true,
          },
        },
      },
    });
    expect(withKeys).toMatchObject({ type: "image", body: "once", media: { mimetype: "image/jpeg" } });
    expect(
      translate({ viewOnceMessage: { message: { videoMessage: { mimetype: "video/mp4", viewOnce: true } } } }),
    ).toMatchObject({
      type: "unsupported",
      body: "viewOnce",
    });
  });

  it("anything else a customer wrote is an unsupported line naming its type; protocol noise stays silent", () => {
    expect(translate({ requestPhoneNumberMessage: {} })).toMatchObject({ type: "unsupported", body: "requestPhoneNumber" });
    expect(translate({ scheduledCallCreationMessage: { title: "call" } })).toMatchObject({
      type: "unsupported",
      body: "scheduledCallCreation",
    });
    expect(translate({ senderKeyDistributionMessage: { groupId: "x" } })).toBeUndefined();
    expect(translate({ pinInChatMessage: { key: { id: "3A" } } })).toBeUndefined();
    expect(translate({ reactionMessage: { key: { id: "3A" }, text: "👍" } })).toBeUndefined();
  });
});
