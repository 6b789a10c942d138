/**
 * A local fake of Meta's Graph API for the WhatsApp Cloud API, and a webhook driver that plays
 * Meta's side of the webhook. Used by the server tests and the Playwright e2e setup; it imports
 * nothing from the server, so `tsx` can run it on its own.
 *
 *   const fake = await startGraphFake();              // Fastify on 127.0.0.1, random port
 *   fake.addAccount({ phoneNumberId, businessAccountId, accessToken });
 *   // point the server at it: WHATSAPP_GRAPH_URL=fake.url  (the version is included: …/v25.0)
 *   fake.failNext({ code: 131047 });                   // the next send answers Meta's error body
 *   fake.setTemplates(businessAccountId, [...]);       // GET /{waba-id}/message_templates, paged
 *   const mediaId = fake.putMedia(bytes, "image/jpeg", phoneNumberId); // media a customer sent
 *   fake.sentMessages(phoneNumberId);                  // bodies POSTed to /{phone-number-id}/messages
 *   fake.delayNext({ on: "messages", ms: 2000 });      // the next send is taken at once, its answer held back
 *   fake.accepted(phoneNumberId);                      // sends Meta took (even those whose answer was lost)
 *   meta.statusesOf(fake.accepted(phoneNumberId), "delivered"); // their statuses, biz_opaque_callback_data echoed
 *   fake.addUser({ waId: "553188887777", aliases: ["5531988887777"] }); // an account WhatsApp knows by another form
 *   fake.addGroup(groupId);                            // a Groups API group the number is in
 *   meta.statuses([fake.statusOf(wamid, "delivered")]); // a status shaped by how the send was addressed
 *   fake.requests;                                     // every request, with its Authorization header
 *   const meta = createWebhookDriver({ url: webhookUrl, appSecret, business });
 *   await meta.deliver(meta.message(text({ from, body: "hi" })), { times: 3 });
 *   await fake.close();
 *
 * Routes (all but the media download under /v25.0): GET /{phone-number-id}, GET /{media-id} (a
 * 5-minute URL on the fake), GET /whatsapp_business/attachments/?mid=… (bytes, bearer required),
 * POST /{phone-number-id}/messages (sends and mark-as-read), POST /{phone-number-id}/media
 * (multipart: messaging_product, type, file), GET /{waba-id}/message_templates (limit, after).
 * A missing, unknown or revoked token answers 190; a token of another account answers 100.
 */
import {
  type AcceptedMessage,
  createGraphServer,
  type FakeWhatsAppUser,
  type GraphFakeAccount,
  type ScriptedDelay,
  type ScriptedError,
  type SentRecord,
  type StoredMedia,
} from "./graph-server.js";
import type { StatusInput } from "./payloads.js";

export type {
  AcceptedMessage,
  FakeWhatsAppUser,
  GraphFakeAccount,
  RecordedRequest,
  ScriptedDelay,
  ScriptedError,
  SentRecord,
  StoredMedia,
} from "./graph-server.js";
export { META_ERRORS, type MetaErrorCode, metaErrorBody } from "./meta-errors.js";
export * as payloads from "./payloads.js";
export { createWebhookDriver, type DeliverOptions, type WebhookDelivery, type WebhookDriver } from "./webhook-driver.js";

export interface GraphFake {
  /** The Graph base URL including the version, for WHATSAPP_GRAPH_URL. */
  url: string;
  /** Every request received, in order. */
  requests: import("./graph-server.js").RecordedRequest[];
  addAccount(account: GraphFakeAccount): void;
  /** Answer the next call(s) of a kind with Meta's error body for `code` (default: the next send). */
  failNext(error: ScriptedError): void;
  /**
   * Hold back the answer of the next call(s) of a kind: the send (or upload) is taken at once, as
   * Meta takes a send whose answer is slow, so a client that stops waiting has still sent it.
   */
  delayNext(delay: ScriptedDelay): void;
  /** The sends Meta took, in order, with the wamid each got and the opaque data it echoes. */
  accepted(phoneNumberId?: string): AcceptedMessage[];
  /** Make a token invalid from now on (190), as when it expires or is revoked. */
  revokeToken(token: string): void;
  /** The message templates of a business account, returned page by page. */
  setTemplates(businessAccountId: string, templates: Record<string, unknown>[]): void;
  /** Store media as if a customer had sent it to `phoneNumberId`; returns its media id. */
  putMedia(data: Buffer, mimeType: string, phoneNumberId: string, filename?: string): string;
  /** Media uploaded by the server (or put by the test). */
  media(id: string): StoredMedia | undefined;
  /** JSON bodies of the sends (and reads) POSTed to /{phone-number-id}/messages. */
  sentMessages(phoneNumberId?: string): Record<string, unknown>[];
  /**
   * A WhatsApp account the fake knows: a send to one of its `aliases` (a Brazilian number typed
   * with the ninth digit) answers its `waId` in `contacts[0].wa_id`, as Meta does.
   */
  addUser(user: FakeWhatsAppUser): void;
  /** A group of the business number (Groups API): sends with `recipient_type: "group"` may go to it. */
  addGroup(groupId: string): void;
  /** How a message the fake answered was addressed (undefined for an id it never gave). */
  sent(wamid: string): SentRecord | undefined;
  /**
   * The status Meta reports for a message it answered, shaped by how it was addressed: a number
   * (`recipient_id`, and the BSUID), a BSUID (`recipient_user_id` only), a group (`recipient_type`,
   * `recipient_participant_id`). For `WebhookDriver.statuses`.
   */
  statusOf(
    wamid: string,
    status: StatusInput["status"],
    options?: { participant?: string; errors?: StatusInput["errors"] },
  ): StatusInput;
  close(): Promise<void>;
}

export async function startGraphFake(options: { version?: string; port?: number } = {}): Promise<GraphFake> {
  const version = options.version ?? "v25.0";
  const server = createGraphServer(version);
  const address = await server.app.listen({ host: "127.0.0.1", port: options.port ?? 0 });
  server.setOrigin(address);
  let counter = 0;
  return {
    url: `${address}/${version}`,
    requests: server.requests,
    addAccount: (account) => server.accounts.set(account.phoneNumberId, account),
    failNext: (error) => server.scripted.push({ on: "messages", times: 1, ...error }),
    delayNext: (delay) => server.delays.push({ times: 1, ...delay }),
    accepted: (phoneNumberId) => server.accepted.filter((m) => !phoneNumberId || m.phoneNumberId === phoneNumberId),
    revokeToken: (token) => server.revoked.add(token),
    setTemplates: (wabaId, templates) => server.templates.set(wabaId, templates),
    putMedia(data, mimeType, phoneNumberId, filename) {
      counter += 1;
      const id = `9${Date.now()}${counter}`;
      server.media.set(id, { id, data, mimeType, filename, owner: phoneNumberId });
      return id;
    },
    media: (id) => server.media.get(id),
    sentMessages: (phoneNumberId) =>
      server.requests
        .filter(
          (r) =>
            r.method === "POST" &&
            r.status === 200 &&
            /^\/\d+\/messages$/.test(r.path) &&
            (!phoneNumberId || r.path === `/${phoneNumberId}/messages`),
        )
        .map((r) => r.body as Record<string, unknown>),
    addUser: (user) => server.users.push(user),
    addGroup: (groupId) => server.groups.add(groupId),
    sent: (wamid) => server.sent.get(wamid),
    statusOf(wamid, status, options = {}) {
      const record = server.sent.get(wamid);
      if (!record) throw new Error(`the fake never answered ${wamid}`);
      const base: StatusInput = {
        id: wamid,
        status,
        ...(options.errors ? { errors: options.errors } : {}),
        ...(record.bizOpaqueCallbackData !== undefined ? { bizOpaqueCallbackData: record.bizOpaqueCallbackData } : {}),
      };
      if (record.groupId) return { ...base, recipientId: record.groupId, group: { participant: options.participant ?? "" } };
      if (record.waId) return { ...base, recipientId: record.waId };
      return { ...base, recipientUserId: record.userId };
    },
    close: () => server.app.close(),
  };
}
