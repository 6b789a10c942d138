import { normalizeMessageContent, type proto, toNumber } from "@whiskeysockets/baileys";

/**
 * What customers send besides text and media, made readable for the agent. Bodies are built from
 * the customer's own words and emoji markers (no labels to translate). A kind Zapdesk cannot show
 * becomes an "unsupported" line naming the WhatsApp type, so the agent still knows they wrote.
 */

/** Content that is not a message someone wrote: key distribution, settings, pins, call logs (calls come as events). */
const SILENT = new Set([
  "senderKeyDistributionMessage",
  "fastRatchetKeySenderKeyDistributionMessage",
  "messageContextInfo",
  "keepInChatMessage",
  "pinInChatMessage",
  "stickerSyncRmrMessage",
  "placeholderMessage",
  "messageHistoryBundle",
  "messageHistoryNotice",
  "albumMessage",
  "callLogMesssage",
  "encReactionMessage",
  "encCommentMessage",
]);

export const isSilentType = (type: string) => SILENT.has(type);

/** "pollUpdateMessage" -> "pollUpdate": the WhatsApp type an unsupported line shows. */
export const typeName = (type: string) => type.replace(/Message$/, "") || type;

const POLL_TYPES = [
  "pollCreationMessage",
  "pollCreationMessageV2",
  "pollCreationMessageV3",
  "pollCreationMessageV4",
  "pollCreationMessageV5",
] as const;

const lines = (...parts: (string | null | undefined | false)[]) =>
  parts
    .filter((p): p is string => typeof p === "string" && p.trim() !== "")
    .join("\n")
    .trim();

function money(amount1000: number | Long | null | undefined, currency: string | null | undefined): string | undefined {
  if (amount1000 === null || amount1000 === undefined) return undefined;
  const value = toNumber(amount1000) / 1000;
  return `${currency ?? ""} ${value.toFixed(2)}`.trim();
}

function when(seconds: number | Long | null | undefined): string | undefined {
  const value = seconds === null || seconds === undefined ? 0 : toNumber(seconds);
  return value > 0 ? new Date(value * 1000).toISOString().replace("T", " ").slice(0, 16) : undefined;
}

/** A native-flow reply's parameters (JSON from WhatsApp): the values a person would read. */
function flowParams(json: string | null | undefined): string | undefined {
  if (!json) return undefined;
  try {
    const params = JSON.parse(json) as Record<string, unknown>;
    const values = Object.entries(params)
      .filter(([key, value]) => key !== "flow_token" && (typeof value === "string" || typeof value === "number"))
      .map(([key, value]) => `${key}: ${value}`);
    return values.length ? values.join("\n") : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The readable text of a reply, poll, event, order, product or invite, or undefined when the
 * content is none of those.
 */
export function readableText(content: proto.IMessage, type: string): string | undefined {
  switch (type) {
    case "buttonsResponseMessage": {
      const reply = content.buttonsResponseMessage;
      return lines(reply?.selectedDisplayText ?? reply?.selectedButtonId);
    }
    case "templateButtonReplyMessage": {
      const reply = content.templateButtonReplyMessage;
      return lines(reply?.selectedDisplayText ?? reply?.selectedId);
    }
    case "listResponseMessage": {
      const reply = content.listResponseMessage;
      return lines(reply?.title ?? reply?.singleSelectReply?.selectedRowId, reply?.description);
    }
    case "interactiveResponseMessage": {
      const reply = content.interactiveResponseMessage;
      const flow = reply?.nativeFlowResponseMessage;
      return lines(reply?.body?.text, flowParams(flow?.paramsJson)) || lines(flow?.name);
    }
    case "eventMessage": {
      const event = content.eventMessage;
      return lines(
        `📅 ${event?.name ?? ""}${event?.isCanceled ? " ❌" : ""}`,
        event?.description,
        when(event?.startTime),
        event?.location?.name ?? event?.location?.address,
        event?.joinLink,
      );
    }
    case "groupInviteMessage": {
      const invite = content.groupInviteMessage;
      return lines(
        `👥 ${invite?.groupName ?? ""}`,
        invite?.caption,
        invite?.inviteCode ? `https://chat.whatsapp.com/${invite.inviteCode}` : undefined,
      );
    }
    case "orderMessage": {
      const order = content.orderMessage;
      const items = order?.itemCount ? ` (${order.itemCount})` : "";
      return lines(
        `🛒 ${order?.orderTitle ?? order?.orderId ?? ""}${items}`,
        order?.message,
        money(order?.totalAmount1000, order?.totalCurrencyCode),
      );
    }
    case "productMessage": {
      const product = content.productMessage?.product;
      return lines(
        `🛍️ ${product?.title ?? ""}`,
        product?.description,
        money(product?.priceAmount1000, product?.currencyCode),
        product?.url,
        content.productMessage?.body,
      );
    }
  }
  if ((POLL_TYPES as readonly string[]).includes(type)) {
    const poll = content[type as (typeof POLL_TYPES)[number]] as proto.Message.IPollCreationMessage | null | undefined;
    const options = (poll?.options ?? []).map((o) => `○ ${o.optionName ?? ""}`);
    return lines(`📊 ${poll?.name ?? ""}`, ...options);
  }
  return undefined;
}

/** Whether a message came as view-once (its media, when WhatsApp sends it to this device, is kept). */
export function isViewOnce(message: proto.IMessage | null | undefined): boolean {
  let content = message;
  for (let i = 0; i < 5 && content; i++) {
    if (content.viewOnceMessage || content.viewOnceMessageV2 || content.viewOnceMessageV2Extension) return true;
    content =
      content.ephemeralMessage?.message ??
      content.documentWithCaptionMessage?.message ??
      content.associatedChildMessage?.message ??
      undefined;
  }
  const media = normalizeMessageContent(message);
  return !!(media?.imageMessage?.viewOnce || media?.videoMessage?.viewOnce || media?.audioMessage?.viewOnce);
}
