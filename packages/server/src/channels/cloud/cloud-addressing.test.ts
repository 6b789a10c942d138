import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import * as build from "../../../test/graph-fake/payloads.js";
import type { OutboundMessage } from "../channel.js";
import { buildSendBody } from "./cloud-channel.js";
import { addressChangeOf, identitiesOf } from "./cloud-identity.js";
import { type CloudValue, changesOf, translateMessage, translateStatus, type WebhookPayload } from "./cloud-translate.js";

/**
 * Issue 18 §3 on the Cloud API's side of the channel, in Meta's 2026 shapes: who a message is
 * from (a number, a BSUID, a group member), what a payload says about who a customer is, and how
 * a send is addressed.
 */
const business = { phoneNumberId: "106540352242922", businessAccountId: "102290129340398", displayPhoneNumber: "15550783881" };
const phone = "5511988887777";
const bsuid = build.bsuidOf(phone);
const noMedia = async () => Readable.from([]);

const changeOf = (payload: unknown): CloudValue => changesOf(payload as WebhookPayload)[0].value;

describe("Cloud API addressing (2026 shapes)", () => {
  it("every message carries the BSUID: a number and its BSUID are reported as one customer, with the username", () => {
    const value = changeOf(build.inbound(business, build.text({ from: phone, body: "oi" }), "Rita", "rita.s"));
    expect(value.contacts).toEqual([{ profile: { name: "Rita", username: "rita.s" }, wa_id: phone, user_id: bsuid }]);
    expect(value.messages?.[0]).toMatchObject({ from: phone, from_user_id: bsuid });
    expect(identitiesOf(value.contacts)).toEqual([{ kind: "bsuid", bsuid, pn: phone, username: "rita.s" }]);
    expect(translateMessage(value.messages![0], value.contacts!, noMedia)).toMatchObject({
      message: { chat: phone, isGroup: false, sender: { number: phone, name: "Rita", username: "rita.s" } },
    });
  });

  it("a withheld number: the message is the BSUID's, shown by the username when there is no profile name", () => {
    const value = changeOf(build.inbound(business, build.text({ from: phone, hidePhone: true, body: "oi" }), "", "rita.s"));
    value.contacts = [{ profile: { username: "rita.s" }, user_id: bsuid }];
    expect(value.messages?.[0]).not.toHaveProperty("from");
    expect(identitiesOf(value.contacts)).toEqual([]);
    expect(translateMessage(value.messages![0], value.contacts, noMedia)).toMatchObject({
      message: { chat: bsuid, sender: { number: bsuid, name: "rita.s", username: "rita.s" } },
    });
  });

  it("a group member's message belongs to the group; a reaction in the group too", () => {
    const group = "Y2FwaV9ncm91cDoxNzA1NTU1MDEzOToxMjAzNjM0MDQ2OTQyMzM4MjA=";
    const value = changeOf(build.inbound(business, build.text({ from: phone, groupId: group, body: "oi" }), "Rita"));
    expect(translateMessage(value.messages![0], value.contacts!, noMedia)).toMatchObject({
      message: { chat: group, isGroup: true, sender: { number: phone, name: "Rita" } },
    });
    const reaction = changeOf(
      build.inbound(business, build.reaction({ from: phone, groupId: group, messageId: "wamid.X", emoji: "👍" })),
    );
    expect(translateMessage(reaction.messages![0], reaction.contacts!, noMedia)).toMatchObject({
      update: { wid: "wamid.X", chat: group, reaction: { by: phone } },
    });
  });

  it("system messages: a number change names the new number and BSUID; a BSUID change the old and new BSUIDs", () => {
    const changed = build.userChangedNumber({ from: phone, to: "5511977776666", name: "Rita" });
    expect(addressChangeOf(changed as never)).toEqual({
      kind: "changed",
      from: phone,
      to: "5511977776666",
      bsuid: build.bsuidOf("5511977776666"),
    });
    // Stored where the customer now is, so the notice joins their conversation.
    expect(translateMessage(changed as never, [], noMedia)).toMatchObject({
      message: { chat: "5511977776666", type: "unsupported", body: `User Rita changed from ${phone} to 5511977776666` },
    });
    const moved = build.userChangedUserId({ previousUserId: bsuid, userId: "BR.42" });
    expect(addressChangeOf(moved as never)).toEqual({ kind: "changed", from: bsuid, to: "BR.42" });
    expect(translateMessage({ ...moved, from_user_id: undefined } as never, [], noMedia)).toMatchObject({
      message: { chat: "BR.42" },
    });
    expect(addressChangeOf(build.text({ from: phone, body: "x" }) as never)).toBeUndefined();
  });

  it("statuses: a send to a BSUID is named by recipient_user_id, a group's by the group id", () => {
    expect(translateStatus({ id: "w1", status: "delivered", recipient_user_id: bsuid })).toEqual({
      wid: "w1",
      chat: bsuid,
      fromMe: true,
      ack: 2,
    });
    const group = "Y2FwaV9ncm91cDox==";
    expect(
      translateStatus({
        id: "w2",
        status: "read",
        recipient_id: group,
        recipient_type: "group",
        recipient_participant_id: phone,
      }),
    ).toEqual({ wid: "w2", chat: group, fromMe: true, ack: 3 });
  });

  it("sends: a number with `to`, a BSUID with `recipient` (no `to`, which would win), a group with recipient_type group", async () => {
    const upload = async () => "media-id";
    const base: OutboundMessage = { to: phone, isGroup: false, body: "oi" };
    expect(await buildSendBody(base, upload)).toMatchObject({ recipient_type: "individual", to: phone });
    const toBsuid = await buildSendBody({ ...base, to: bsuid }, upload);
    expect(toBsuid).toMatchObject({ recipient_type: "individual", recipient: bsuid });
    expect(toBsuid).not.toHaveProperty("to");
    expect(await buildSendBody({ ...base, to: "Y2FwaV9ncm91cDox", isGroup: true }, upload)).toMatchObject({
      recipient_type: "group",
      to: "Y2FwaV9ncm91cDox",
    });
  });
});
