import { AppError } from "../../lib/app-error.js";
import {
  CALL_WID_PREFIX,
  type ChannelContext,
  type ChannelFactory,
  type ChannelSession,
  type OutboundMessage,
  SendFailure,
  SendOutcomeUnknown,
  type SentMessage,
} from "../channel.js";
import { isBsuidAddress, isPhoneAddress } from "../chat-address.js";
import { type CloudAccount, type CloudDeps, graphClientFor, loadCloudAccount } from "./cloud-account.js";
import { downloadMedia, mediaKind, uploadMedia } from "./cloud-media.js";
import { mediaIdOf } from "./cloud-translate.js";
import {
  type GraphClient,
  GraphError,
  GraphNoAnswer,
  GraphUnreachable,
  isTransient,
  TOKEN_INVALID_CODE,
  toSendFailure,
} from "./graph-client.js";

/** Meta echoes up to 512 characters of `biz_opaque_callback_data` in the message's status webhooks. */
const OPAQUE_MAX = 512;

interface SendResponse {
  messaging_product?: string;
  /** `wa_id` for a send to a number (WhatsApp's own id for it), `user_id` for a send to a BSUID. */
  contacts?: { input?: string; wa_id?: string; user_id?: string }[];
  messages?: { id?: string }[];
}

/**
 * Who a send goes to: a group (Groups API: `recipient_type: "group"`, `to` = the group id), a
 * customer known by BSUID alone (`recipient`, since a username customer's number may be withheld;
 * `to` would win over it, so it is left out), or a phone number (`to`, Meta's recommendation).
 */
function addressing(message: OutboundMessage): Record<string, unknown> {
  if (message.isGroup) return { recipient_type: "group", to: message.to };
  if (isBsuidAddress(message.to)) return { recipient_type: "individual", recipient: message.to };
  return { recipient_type: "individual", to: message.to };
}

/** WhatsApp's id for the number we sent to, when its answer names another one (Brazil's ninth digit). */
function canonicalOf(message: OutboundMessage, res: SendResponse): string | undefined {
  if (message.isGroup || !isPhoneAddress(message.to)) return undefined;
  const waId = (res.contacts?.[0]?.wa_id ?? "").replace(/\D/g, "");
  return waId && waId !== message.to ? waId : undefined;
}

/** Meta's JSON body for POST /{phone-number-id}/messages. */
export async function buildSendBody(message: OutboundMessage, upload: () => Promise<string>): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = { messaging_product: "whatsapp", ...addressing(message) };
  if (message.quoted?.wid) body.context = { message_id: message.quoted.wid };
  // Our own id for the row: when the send's answer is lost, its statuses still name the row.
  if (message.id && message.id.length <= OPAQUE_MAX) body.biz_opaque_callback_data = message.id;
  if (message.template) {
    body.type = "template";
    body.template = {
      name: message.template.name,
      language: { policy: "deterministic", code: message.template.language },
      components: message.template.components,
    };
    return body;
  }
  if (message.media) {
    const kind = mediaKind(message.media);
    const object: Record<string, unknown> = { id: await upload() };
    // Audio carries no caption on WhatsApp; documents keep their file name.
    if (kind !== "audio" && message.body.trim()) object.caption = message.body;
    if (kind === "document") object.filename = message.media.filename;
    // A voice note (the play-button bubble) rather than an audio file.
    if (kind === "audio" && message.media.asVoice) object.voice = true;
    body.type = kind;
    body[kind] = object;
    return body;
  }
  body.type = "text";
  body.text = { body: message.body, preview_url: /https?:\/\//i.test(message.body) };
  return body;
}

/**
 * A Cloud API connection. There is no socket: "connected" means a Graph call with the token
 * succeeded. Inbound events arrive by webhook in any process (modules/webhooks), so this session
 * only sends, marks as read and re-downloads media. A 190 closes it for good (TOKEN_INVALID, an
 * admin must paste a new token); a Graph API that refuses connections drops it and the manager
 * retries. A slow answer never does: it is that request's problem (a send whose answer never came
 * is an unknown outcome, settled by its status webhooks), not the connection's.
 */
function createCloudSession(context: ChannelContext, deps: CloudDeps): ChannelSession {
  const { handlers, logger } = context;
  let live: { client: GraphClient; account: CloudAccount } | undefined;
  let closed = false;

  function close(
    reason: "dropped" | "terminal",
    statusReason: "TOKEN_INVALID" | "CLOUD_UNREACHABLE" | "CLOUD_ERROR",
    error: string,
  ) {
    if (closed) return;
    closed = true;
    live = undefined;
    handlers.onClosed({ reason, statusReason, error });
  }

  /** A failed Graph call that says something about the whole connection, not just this request. */
  function observe(error: unknown) {
    if (error instanceof GraphError && error.code === TOKEN_INVALID_CODE) close("terminal", "TOKEN_INVALID", error.message);
    else if (error instanceof GraphUnreachable && !error.timedOut) close("dropped", "CLOUD_UNREACHABLE", error.message);
  }

  function current() {
    if (!live) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    return live;
  }

  return {
    async start() {
      let account: CloudAccount | undefined;
      try {
        account = await loadCloudAccount(context.store, context.whatsappId, deps.openSecret);
      } catch (error) {
        // A changed ENCRYPTION_KEY cannot open the stored secrets: retrying will not help.
        close("terminal", "CLOUD_ERROR", `cannot open the stored secrets: ${(error as Error).message}`);
        return;
      }
      if (!account?.accessToken) {
        close("terminal", "CLOUD_ERROR", "the Cloud API settings are incomplete");
        return;
      }
      const client = graphClientFor(deps, account);
      try {
        await client.get(account.phoneNumberId, { fields: "id,display_phone_number,verified_name" });
      } catch (error) {
        if (error instanceof GraphError && error.code === TOKEN_INVALID_CODE) {
          close("terminal", "TOKEN_INVALID", error.message);
          return;
        }
        if (error instanceof GraphError) {
          const transient = isTransient(error.code) || error.httpStatus >= 500;
          close(transient ? "dropped" : "terminal", "CLOUD_ERROR", error.message);
          return;
        }
        // Not connected yet: even a slow check leaves nothing up, so the manager tries again.
        if (error instanceof GraphUnreachable || error instanceof GraphNoAnswer) {
          close("dropped", "CLOUD_UNREACHABLE", error.message);
          return;
        }
        throw error;
      }
      if (closed) return;
      live = { client, account };
      handlers.onStatus("CONNECTED");
    },

    async stop() {
      closed = true;
      live = undefined;
    },

    // Nothing is paired to a device: the credentials stay until an admin changes them.
    async logout() {
      closed = true;
      live = undefined;
    },

    async send(message: OutboundMessage): Promise<SentMessage> {
      const { client, account } = current();
      // Before the message itself is posted, nothing reached the customer: a lost upload is uploaded again.
      let posted = false;
      try {
        const body = await buildSendBody(message, () => uploadMedia(client, account.phoneNumberId, message.media!));
        posted = true;
        const res = await client.postJson<SendResponse>(`${account.phoneNumberId}/messages`, body);
        const wid = res.messages?.[0]?.id;
        if (!wid) throw new SendFailure("CLOUD_ERROR", "Meta answered without a message id", false);
        const canonicalTo = canonicalOf(message, res);
        return { wid, timestamp: new Date(), ...(canonicalTo ? { canonicalTo } : {}) };
      } catch (error) {
        if (error instanceof SendFailure) throw error;
        observe(error);
        if (posted && error instanceof GraphNoAnswer) throw new SendOutcomeUnknown(error.message);
        throw toSendFailure(error);
      }
    },

    async deleteMessage() {
      throw new AppError("ERR_WAPP_NOT_SUPPORTED");
    },

    // Marking the newest message read marks the earlier ones of the conversation too (Meta). The
    // wids come oldest first; Zapdesk's own call lines ("call-…") are no message Meta knows.
    async markRead(target) {
      const wid = target.wids.filter((w) => !w.startsWith(CALL_WID_PREFIX)).at(-1);
      if (!wid || !live) return;
      try {
        await live.client.postJson(`${live.account.phoneNumberId}/messages`, {
          messaging_product: "whatsapp",
          status: "read",
          message_id: wid,
        });
      } catch (error) {
        observe(error);
        throw error;
      }
    },

    // The Cloud API cannot tell whether a number has WhatsApp: a failed send will say so.
    async checkNumber(number) {
      const digits = number.replace(/\D/g, "");
      if (!/^\d{8,15}$/.test(digits)) throw new AppError("ERR_WAPP_INVALID_CONTACT");
      return digits;
    },

    async profilePictureUrl() {
      return undefined;
    },

    async listContacts() {
      throw new AppError("ERR_WAPP_NOT_SUPPORTED");
    },

    async rejectCall() {},

    async downloadMedia(raw) {
      const mediaId = mediaIdOf(raw);
      if (!mediaId) throw new Error("no media id in the stored message");
      const { client } = current();
      try {
        return await downloadMedia(client, mediaId, context.mediaMaxBytes);
      } catch (error) {
        observe(error);
        logger.debug({ err: error, mediaId }, "cloud media download failed");
        throw error;
      }
    },

    async sendPresence() {},
  };
}

export function createCloudChannelFactory(deps: CloudDeps): ChannelFactory {
  return (context) => createCloudSession(context, deps);
}
