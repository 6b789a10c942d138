import { randomBytes } from "node:crypto";

/**
 * Meta's error codes the fake can answer with, with the titles of Meta's error-code page
 * (developers.facebook.com/documentation/business-messaging/whatsapp/support/error-codes) and the
 * HTTP status the Graph API uses for them.
 */
export const META_ERRORS = {
  100: { title: "Invalid parameter", http: 400, type: "OAuthException" },
  190: { title: "Access token has expired", http: 401, type: "OAuthException" },
  130429: { title: "Rate limit hit", http: 400, type: "OAuthException" },
  131026: { title: "Message Undeliverable", http: 400, type: "OAuthException" },
  131047: { title: "Re-engagement message", http: 400, type: "OAuthException" },
  131056: { title: "(Business Account, Consumer Account) pair rate limit hit", http: 400, type: "OAuthException" },
  // Business-scoped user IDs page (2026): what a BSUID recipient cannot receive (authentication templates).
  131062: {
    title: "Business-scoped User ID recipients are not supported for this message",
    http: 400,
    type: "OAuthException",
  },
} as const;

export type MetaErrorCode = keyof typeof META_ERRORS;

const DETAILS: Partial<Record<MetaErrorCode, string>> = {
  131047: "Message failed to send because more than 24 hours have passed since the customer last replied to this number.",
  131026: "Message Undeliverable.",
  130429: "Cloud API message throughput has been reached.",
  131056: "Too many messages sent from the sender phone number to the same recipient phone number in a short period of time.",
  131062: "One-tap, zero-tap and copy-code authentication templates can only be sent to a phone number.",
};

/**
 * The Graph API error body: `{ error: { message, type, code, error_subcode?, error_data?, fbtrace_id } }`
 * (Graph API "Handling errors" guide; WhatsApp error-code page). The title is part of `message`
 * as "(#code) Title"; WhatsApp codes add `error_data.details`.
 */
export function metaErrorBody(code: MetaErrorCode, overrides: { message?: string; subcode?: number; details?: string } = {}) {
  const known = META_ERRORS[code];
  const details = overrides.details ?? DETAILS[code];
  return {
    error: {
      message:
        overrides.message ?? (code === 190 ? "Error validating access token: Session has expired." : `(#${code}) ${known.title}`),
      type: known.type,
      code,
      ...(overrides.subcode !== undefined ? { error_subcode: overrides.subcode } : code === 190 ? { error_subcode: 463 } : {}),
      ...(details ? { error_data: { messaging_product: "whatsapp", details } } : {}),
      fbtrace_id: randomBytes(8).toString("base64url"),
    },
  };
}
