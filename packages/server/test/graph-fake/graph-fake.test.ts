/**
 * Keeps the Graph API fake honest: every shape it answers or posts is one Meta documents. Pages
 * the shapes were taken from (Meta's WhatsApp Business Platform documentation):
 *
 * - Incoming messages (text, contacts[].wa_id and profile.name, metadata.phone_number_id):
 *   https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages
 * - Per type: .../webhooks/reference/messages/contacts, .../messages/reaction/ (no `emoji` when a
 *   reaction is withdrawn), .../messages/button/ (context, button.payload/text),
 *   .../messages/interactive (button_reply, list_reply), .../messages/unsupported,
 *   .../messages/system/ (no contacts array; BSUID changes)
 * - Statuses (sent, delivered, read, failed; "read" may come without "delivered"):
 *   https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/status/
 * - Errors in webhooks (code, title, message, error_data.details, href):
 *   https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/errors
 * - Error codes and titles (130429, 131026, 131047, 131056, 100, 190), synchronous and webhook:
 *   https://developers.facebook.com/documentation/business-messaging/whatsapp/support/error-codes
 * - Graph error body { error: { message, type, code, error_subcode, fbtrace_id } }:
 *   https://developers.facebook.com/docs/graph-api/guides/error-handling
 * - Mark as read { messaging_product, status: "read", message_id } (marks earlier messages too):
 *   https://developers.facebook.com/documentation/business-messaging/whatsapp/messages/mark-message-as-read/
 * - Media: upload to /PHONE_NUMBER_ID/media (file, type, messaging_product), GET /MEDIA_ID → url,
 *   mime_type, sha256, file_size, id; the URL is short-lived and fetched with the access token;
 *   webhook media ids expire after 7 days:
 *   https://developers.facebook.com/documentation/business-messaging/whatsapp/business-phone-numbers/media/
 * - Templates list { data, paging: { cursors: { before, after }, next } }:
 *   https://developers.facebook.com/documentation/business-messaging/whatsapp/templates/template-management/
 * - Webhook handshake (hub.mode, hub.challenge, hub.verify_token) and X-Hub-Signature-256:
 *   https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/create-webhook-endpoint
 * - Reactions sent by a business only get a "sent" status:
 *   https://developers.facebook.com/documentation/business-messaging/whatsapp/messages/reaction-messages
 * - Send response { messaging_product, contacts: [{ input, wa_id }], messages: [{ id }] }: the
 *   messages API reference (the same shape Meta's SDKs type as ServerSentMessageResponse).
 * - Limits: text.body up to 4,096 characters, captions up to 1,024 (error 100 beyond); voice notes
 *   as `audio: { id, voice: true }`: .../messages/text-messages, .../messages/audio-messages
 * - `biz_opaque_callback_data` (up to 512 characters since the Cloud API changelog raised it from
 *   256) on a send, echoed in every status webhook of that message: .../webhooks/reference/messages/status/
 * - Flow answers `interactive: { type: "nfm_reply", nfm_reply: { name, body, response_json } }`:
 *   https://developers.facebook.com/documentation/business-messaging/whatsapp/flows/guides/flowswebhooks
 * - The `calls` field: `connect` (with the SDP offer) and `terminate` (status COMPLETED/FAILED,
 *   start_time, end_time, duration), direction USER_INITIATED / BUSINESS_INITIATED:
 *   https://developers.facebook.com/documentation/business-messaging/whatsapp/calling/user-initiated-calls
 * - Graph versions and their expiry (v21.0 2027-01-21 … v25.0 2028-07-29): the Graph API changelog.
 * - 2026, "Business-scoped user IDs" (updated 2026-11-05):
 *   https://developers.facebook.com/documentation/business-messaging/whatsapp/business-scoped-user-ids/
 *   sends take `recipient` (a BSUID) instead of `to`, `to` wins when both are given; the answer's
 *   contacts[] has `wa_id` for a send to a number and `user_id` for a send to a BSUID; error
 *   131062 for what a BSUID cannot receive (one-tap, zero-tap and copy-code authentication
 *   templates); webhooks carry contacts[].user_id, messages[].from_user_id, profile.username;
 *   statuses carry recipient_user_id and omit recipient_id for a send to a BSUID; failed statuses
 *   come without contacts[] (and without recipient_user_id for a send to a number).
 * - System messages (updated 2026-08-11): .../webhooks/reference/messages/system/ (no contacts[];
 *   user_changed_number with system.wa_id, user_changed_user_id with previous_user_id).
 * - Groups: .../webhooks/reference/messages/group/ (messages[].group_id; statuses with
 *   recipient_type "group" and recipient_participant_id); sends with recipient_type "group".
 */
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createWebhookDriver, type GraphFake, payloads, startGraphFake } from "./index.js";

const account = { phoneNumberId: "106540352242922", businessAccountId: "102290129340398", accessToken: "EAAJB-good" };
const other = { phoneNumberId: "106540352242999", businessAccountId: "102290129340999", accessToken: "EAAJB-other" };

describe("Graph API fake", () => {
  let fake: GraphFake;
  const call = (path: string, init: RequestInit & { token?: string } = {}) =>
    fetch(`${fake.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${init.token ?? account.accessToken}`, ...(init.headers as object) },
    });

  beforeAll(async () => {
    fake = await startGraphFake();
    fake.addAccount(account);
    fake.addAccount(other);
  });
  afterAll(async () => fake?.close());

  it("serves the phone number with a valid token and answers 190 in Graph's error body otherwise", async () => {
    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v25\.0$/);
    const ok = await call(`/${account.phoneNumberId}`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ id: account.phoneNumberId, display_phone_number: expect.any(String) });
    const bad = await call(`/${account.phoneNumberId}`, { token: "nope" });
    expect(bad.status).toBe(401);
    const body = (await bad.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ type: "OAuthException", code: 190, fbtrace_id: expect.any(String) });
    const foreign = await call(`/${account.phoneNumberId}`, { token: other.accessToken });
    expect(((await foreign.json()) as { error: { code: number } }).error.code).toBe(100);
  });

  it("sends answer Meta's response; bodies the type does not describe are refused with 100", async () => {
    const send = (body: unknown) =>
      call(`/${account.phoneNumberId}/messages`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const ok = await send({ messaging_product: "whatsapp", to: "5511999990000", type: "text", text: { body: "hi" } });
    expect(await ok.json()).toEqual({
      messaging_product: "whatsapp",
      contacts: [{ input: "5511999990000", wa_id: "5511999990000" }],
      messages: [{ id: expect.stringMatching(/^wamid\./) }],
    });
    const refused = await send({ messaging_product: "whatsapp", to: "5511999990000", type: "image", image: { id: "404" } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(100);
    const read = await send({ messaging_product: "whatsapp", status: "read", message_id: "wamid.X" });
    expect(await read.json()).toEqual({ success: true });
  });

  it("refuses what Meta refuses: a text over 4,096, a caption over 1,024, opaque data over 512", async () => {
    const send = (body: Record<string, unknown>) =>
      call(`/${account.phoneNumberId}/messages`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ messaging_product: "whatsapp", to: "5511999990000", ...body }),
      });
    const codeOf = async (res: Response) => ((await res.json()) as { error?: { code: number } }).error?.code;
    expect(await codeOf(await send({ type: "text", text: { body: "x".repeat(4097) } }))).toBe(100);
    expect((await send({ type: "text", text: { body: "x".repeat(4096) } })).status).toBe(200);
    expect(await codeOf(await send({ type: "text", text: { body: "x" }, biz_opaque_callback_data: "o".repeat(513) }))).toBe(100);
    const media = fake.putMedia(Buffer.from("jpeg"), "image/jpeg", account.phoneNumberId);
    expect(await codeOf(await send({ type: "image", image: { id: media, caption: "c".repeat(1025) } }))).toBe(100);
  });

  it("a held-back answer: the send is taken at once (with its opaque data) and answered later", async () => {
    fake.delayNext({ on: "messages", ms: 300 });
    const started = Date.now();
    const pending = call(`/${account.phoneNumberId}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        messaging_product: "whatsapp",
        to: "5511999990042",
        type: "text",
        text: { body: "held" },
        biz_opaque_callback_data: "3EB0HELD",
      }),
    });
    await vi.waitFor(() => expect(fake.accepted(account.phoneNumberId).some((m) => m.to === "5511999990042")).toBe(true));
    const answer = (await (await pending).json()) as { messages: { id: string }[] };
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    const taken = fake.accepted(account.phoneNumberId).filter((m) => m.to === "5511999990042");
    expect(taken).toEqual([
      expect.objectContaining({ id: answer.messages[0].id, bizOpaqueCallbackData: "3EB0HELD", type: "text" }),
    ]);
    const business = { ...account, displayPhoneNumber: "15550783881" };
    const meta = createWebhookDriver({ url: "http://127.0.0.1:9/unused", appSecret: "s", business });
    const { statuses } = meta.statusesOf(taken, "delivered").entry[0].changes[0].value as { statuses?: unknown[] };
    expect(statuses).toEqual([
      expect.objectContaining({
        id: taken[0].id,
        status: "delivered",
        recipient_id: "5511999990042",
        biz_opaque_callback_data: "3EB0HELD",
      }),
    ]);
  });

  it("2026 addressing: WhatsApp's own id in wa_id, `recipient` for a BSUID (user_id back), groups, 131062", async () => {
    const send = (body: Record<string, unknown>) =>
      call(`/${account.phoneNumberId}/messages`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ messaging_product: "whatsapp", type: "text", text: { body: "hi" }, ...body }),
      });
    fake.addUser({ waId: "553188887777", aliases: ["5531988887777"] });
    const typed = (await (await send({ to: "5531988887777" })).json()) as { contacts: unknown[]; messages: { id: string }[] };
    expect(typed.contacts).toEqual([{ input: "5531988887777", wa_id: "553188887777" }]);
    expect(fake.statusOf(typed.messages[0].id, "delivered")).toEqual({
      id: typed.messages[0].id,
      status: "delivered",
      recipientId: "553188887777",
    });

    const bsuid = payloads.bsuidOf("5511977776666");
    const toUser = (await (await send({ recipient: bsuid })).json()) as { contacts: unknown[]; messages: { id: string }[] };
    expect(toUser.contacts).toEqual([{ input: bsuid, user_id: bsuid }]);
    const [status] = (
      createWebhookDriver({ url: "http://unused", appSecret: "s", business: { ...account, displayPhoneNumber: "1" } }).statuses([
        fake.statusOf(toUser.messages[0].id, "read"),
      ]).entry[0].changes[0].value as unknown as { statuses: Record<string, unknown>[] }
    ).statuses;
    expect(status).toMatchObject({ status: "read", recipient_user_id: bsuid });
    expect(status).not.toHaveProperty("recipient_id");
    const both = (await (await send({ to: "5511977776666", recipient: bsuid })).json()) as { contacts: unknown[] };
    expect(both.contacts).toEqual([{ input: "5511977776666", wa_id: "5511977776666" }]);
    expect((await send({ recipient: "not a bsuid" })).status).toBe(400);

    expect((await send({ recipient_type: "group", to: "R3JvdXA=" })).status).toBe(400);
    fake.addGroup("R3JvdXA=");
    const group = (await (await send({ recipient_type: "group", to: "R3JvdXA=" })).json()) as { contacts: unknown[] };
    expect(group.contacts).toEqual([{ input: "R3JvdXA=" }]);

    fake.setTemplates(account.businessAccountId, [
      { name: "otp", language: "en_US", status: "APPROVED", category: "AUTHENTICATION", components: [] },
    ]);
    const otp = await send({ recipient: bsuid, type: "template", template: { name: "otp", language: { code: "en_US" } } });
    expect(otp.status).toBe(400);
    expect(((await otp.json()) as { error: { code: number } }).error.code).toBe(131062);
  });

  it("scripted errors carry Meta's code, '(#code) title' message and error_data.details, once", async () => {
    fake.failNext({ code: 131047 });
    const body = { messaging_product: "whatsapp", to: "5511999990000", type: "text", text: { body: "late" } };
    const post = () =>
      call(`/${account.phoneNumberId}/messages`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const failed = await post();
    expect(failed.status).toBe(400);
    expect(await failed.json()).toMatchObject({
      error: {
        message: "(#131047) Re-engagement message",
        type: "OAuthException",
        code: 131047,
        error_data: { messaging_product: "whatsapp", details: expect.stringContaining("24 hours") },
      },
    });
    expect((await post()).status).toBe(200);
  });

  it("uploads media (multipart), hands a short-lived URL and serves the bytes only with the owner's token", async () => {
    const form = new FormData();
    form.set("messaging_product", "whatsapp");
    form.set("type", "image/png");
    form.set("file", new Blob([Buffer.from("png-bytes")], { type: "image/png" }), "a.png");
    const uploaded = await call(`/${account.phoneNumberId}/media`, { method: "POST", body: form });
    const { id } = (await uploaded.json()) as { id: string };
    expect(id).toMatch(/^\d+$/);
    const info = (await (await call(`/${id}`)).json()) as Record<string, string>;
    expect(info).toMatchObject({ messaging_product: "whatsapp", mime_type: "image/png", file_size: "9", id });
    expect(info.sha256).toMatch(/^[0-9a-f]{64}$/);
    const bytes = await fetch(info.url, { headers: { authorization: `Bearer ${account.accessToken}` } });
    expect(Buffer.from(await bytes.arrayBuffer()).toString()).toBe("png-bytes");
    expect((await fetch(info.url)).status).toBe(401);
    expect((await fetch(info.url, { headers: { authorization: `Bearer ${other.accessToken}` } })).status).toBe(400);
  });

  it("lists templates page by page with cursors and a next link", async () => {
    fake.setTemplates(
      account.businessAccountId,
      Array.from({ length: 5 }, (_, i) => ({ name: `t${i}`, language: "en_US", status: "APPROVED", components: [] })),
    );
    const first = (await (await call(`/${account.businessAccountId}/message_templates?limit=2`)).json()) as {
      data: { name: string }[];
      paging: { cursors: { after: string }; next?: string };
    };
    expect(first.data.map((t) => t.name)).toEqual(["t0", "t1"]);
    expect(first.paging.next).toContain(`after=${first.paging.cursors.after}`);
    const last = (await (
      await call(`/${account.businessAccountId}/message_templates?limit=4&after=${first.paging.cursors.after}`)
    ).json()) as { data: { name: string }[]; paging: { next?: string } };
    expect(last.data.map((t) => t.name)).toEqual(["t2", "t3", "t4"]);
    expect(last.paging.next).toBeUndefined();
  });

  it("the webhook driver signs the exact bytes with the app secret, and duplicates and forges on request", async () => {
    const received: { body: string; signature?: string }[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        received.push({ body, signature: req.headers["x-hub-signature-256"] as string | undefined });
        res.end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const business = { ...account, displayPhoneNumber: "15550783881" };
    const meta = createWebhookDriver({ url: `http://127.0.0.1:${port}/hook`, appSecret: "app-secret", business });
    const payload = meta.message(payloads.text({ from: "16505551234", body: "Does it come in another color?" }), "Sheena Nelson");
    await meta.deliver(payload, { times: 2 });
    await meta.deliver(payload, { signature: "forged" });
    await meta.deliver(payload, { signature: "missing" });
    server.close();
    const expected = `sha256=${createHmac("sha256", "app-secret").update(received[0].body).digest("hex")}`;
    expect(received.map((r) => r.signature)).toEqual([expected, expected, expect.not.stringMatching(expected), undefined]);
    expect(received[1].body).toBe(received[0].body);
    expect(JSON.parse(received[0].body)).toMatchObject({
      object: "whatsapp_business_account",
      entry: [
        {
          id: account.businessAccountId,
          changes: [
            {
              field: "messages",
              value: {
                messaging_product: "whatsapp",
                metadata: { display_phone_number: "15550783881", phone_number_id: account.phoneNumberId },
                contacts: [
                  { profile: { name: "Sheena Nelson" }, wa_id: "16505551234", user_id: payloads.bsuidOf("16505551234") },
                ],
                messages: [
                  {
                    from: "16505551234",
                    from_user_id: payloads.bsuidOf("16505551234"),
                    type: "text",
                    text: { body: "Does it come in another color?" },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
  });
});
