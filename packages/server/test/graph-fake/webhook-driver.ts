import { createHmac } from "node:crypto";
import type { AcceptedMessage } from "./graph-server.js";
import * as build from "./payloads.js";

export interface WebhookDelivery {
  status: number;
  body: string;
}

export interface DeliverOptions {
  /** Deliver the same bytes this many times (Meta retries and duplicates). */
  times?: number;
  /** Wait before each delivery, in ms. */
  delayMs?: number;
  /** Sign with another secret ("forged"), send no signature ("missing"), or send this header value. */
  signature?: "forged" | "missing" | string;
}

/**
 * Plays Meta's side of the webhook: builds `messages` payloads for one business phone number,
 * signs the exact bytes it sends with the app secret (`X-Hub-Signature-256: sha256=<hex HMAC>`) and
 * posts them to the callback URL, duplicated, reordered or delayed on request.
 */
export function createWebhookDriver(options: { url: string; appSecret: string; business: build.Business }) {
  const { business } = options;

  const sign = (raw: string, secret = options.appSecret) => `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`;

  async function post(raw: string, signature: DeliverOptions["signature"]): Promise<WebhookDelivery> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (signature !== "missing") {
      headers["x-hub-signature-256"] = signature === "forged" ? sign(raw, "not-the-app-secret") : (signature ?? sign(raw));
    }
    const res = await fetch(options.url, { method: "POST", headers, body: raw });
    return { status: res.status, body: await res.text() };
  }

  async function deliver(payload: unknown, deliverOptions: DeliverOptions = {}): Promise<WebhookDelivery[]> {
    // One serialisation: every copy carries the same bytes, as Meta's redeliveries do.
    const raw = JSON.stringify(payload);
    const results: WebhookDelivery[] = [];
    for (let i = 0; i < (deliverOptions.times ?? 1); i++) {
      if (deliverOptions.delayMs) await new Promise((resolve) => setTimeout(resolve, deliverOptions.delayMs));
      results.push(await post(raw, deliverOptions.signature));
    }
    return results;
  }

  return {
    sign,
    deliver,
    /** Several payloads in the given order ("reverse" plays them backwards), one after another. */
    async deliverAll(payloads: unknown[], order: "as-is" | "reverse" = "as-is", delayMs = 0) {
      const list = order === "reverse" ? [...payloads].reverse() : payloads;
      const results: WebhookDelivery[] = [];
      for (const payload of list) results.push(...(await deliver(payload, { delayMs })));
      return results;
    },
    /** Several payloads at once, as Meta's parallel deliveries arrive. */
    async deliverConcurrently(payloads: unknown[]) {
      return (await Promise.all(payloads.map((payload) => deliver(payload)))).flat();
    },
    /** The envelope of a customer message (`contacts[]` with wa_id, user_id and profile, `messages[]`). */
    message: (message: build.WebhookMessage, profileName?: string, username?: string) =>
      build.inbound(business, message, profileName, username),
    /** A system message (a number or BSUID change): Meta sends it without `contacts[]`. */
    system: (message: build.WebhookMessage) => build.envelope(business, { messages: [message] }),
    statuses: (list: build.StatusInput[]) => build.statuses(business, list),
    /** Statuses of sends the fake took, as Meta reports them: to the recipient, the opaque data echoed. */
    statusesOf: (sent: AcceptedMessage[], status: build.StatusInput["status"]) =>
      build.statuses(
        business,
        sent.map((m) => ({ id: m.id, status, recipientId: m.to, bizOpaqueCallbackData: m.bizOpaqueCallbackData })),
      ),
    /** Account-level errors (`value.errors` of a `messages` change). */
    accountErrors: (list: Parameters<typeof build.accountErrors>[1]) => build.accountErrors(business, list),
    /** The `calls` field: a customer's call ringing (connect) or ended (terminate). */
    calls: (list: build.CallInput[]) => build.calls(business, list),
  };
}

export type WebhookDriver = ReturnType<typeof createWebhookDriver>;
