import { zodResolver } from "@hookform/resolvers/zod";
import {
  CHANNEL_CAPABILITIES,
  type Connection,
  type ConnectionProvider,
  connectionInputSchema,
  connectionUpdateSchema,
  RATING_TIMEOUT_MINUTES,
} from "@zapdesk/core";
import type { Resolver } from "react-hook-form";
import type { z } from "zod";

/**
 * What the dialog edits. It is the API input plus what only the screen needs (the "pair by
 * phone" switch, blank secrets meaning "keep"); `toPayload` turns it into the input that core's
 * schema validates, with the same field paths, so the schema's errors land on the right fields.
 */
export interface ConnectionForm {
  name: string;
  provider: ConnectionProvider;
  greetingMessage: string;
  farewellMessage: string;
  isDefault: boolean;
  queueIds: number[];
  pairByPhone: boolean;
  pairingPhone: string;
  /** In ms; null: not chosen (a new connection gets the server's recommended pacing). */
  pacing: { minGapMs: number | null; jitterMs: number | null };
  cloud: { phoneNumberId: string; businessAccountId: string; accessToken: string; appSecret: string; verifyToken: string };
  /** Issue 11 CSAT: the survey switch, its question and answer window; `ratingWasOn`: saved with a question (off sends ""). */
  ratingOn: boolean;
  ratingMessage: string;
  ratingTimeoutMinutes: number;
  ratingWasOn: boolean;
}

export type CreatePayload = z.output<typeof connectionInputSchema>;
export type UpdatePayload = z.output<typeof connectionUpdateSchema>;

const TOKEN_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** A webhook verify token for Meta's handshake: 32 random URL-safe characters (core allows 16–128 of `[\w.~-]`). */
export function generateVerifyToken(length = 32): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => TOKEN_ALPHABET[b % TOKEN_ALPHABET.length]).join("");
}

export function emptyForm(): ConnectionForm {
  return {
    name: "",
    provider: "baileys",
    greetingMessage: "",
    farewellMessage: "",
    isDefault: false,
    queueIds: [],
    pairByPhone: false,
    pairingPhone: "",
    pacing: { minGapMs: null, jitterMs: null },
    cloud: { phoneNumberId: "", businessAccountId: "", accessToken: "", appSecret: "", verifyToken: generateVerifyToken() },
    ratingOn: false,
    ratingMessage: "",
    ratingTimeoutMinutes: RATING_TIMEOUT_MINUTES.default,
    ratingWasOn: false,
  };
}

export function formFromConnection(connection: Connection): ConnectionForm {
  return {
    name: connection.name,
    provider: connection.provider,
    greetingMessage: connection.greetingMessage,
    farewellMessage: connection.farewellMessage,
    isDefault: connection.isDefault,
    queueIds: connection.queues.map((q) => q.id),
    pairByPhone: !!connection.pairingPhone,
    pairingPhone: connection.pairingPhone ?? "",
    pacing: { ...connection.pacing },
    cloud: {
      phoneNumberId: connection.cloud?.phoneNumberId ?? "",
      businessAccountId: connection.cloud?.businessAccountId ?? "",
      // Secrets never come back from the server: blank keeps the stored value.
      accessToken: "",
      appSecret: "",
      verifyToken: connection.cloud?.verifyToken || generateVerifyToken(),
    },
    ratingOn: !!connection.ratingMessage.trim(),
    ratingMessage: connection.ratingMessage,
    ratingTimeoutMinutes: connection.ratingTimeoutMinutes,
    ratingWasOn: !!connection.ratingMessage.trim(),
  };
}

/** Pacing applies to connections that send through a phone session (QR-like), not to the Cloud API. */
export const hasPacing = (provider: ConnectionProvider) => CHANNEL_CAPABILITIES[provider].qrCode;

function pacingOf(values: ConnectionForm) {
  const { minGapMs, jitterMs } = values.pacing;
  if (minGapMs === null && jitterMs === null) return undefined;
  return { minGapMs: minGapMs ?? 0, jitterMs: jitterMs ?? 0 };
}

/** The body of POST (create) or PUT (edit) /whatsapp, before validation. */
export function toPayload(values: ConnectionForm, editing: boolean): Record<string, unknown> {
  const { provider } = values;
  const capabilities = CHANNEL_CAPABILITIES[provider];
  const payload: Record<string, unknown> = {
    name: values.name,
    greetingMessage: values.greetingMessage,
    farewellMessage: values.farewellMessage,
    isDefault: values.isDefault,
    queueIds: values.queueIds,
  };
  if (!editing) payload.provider = provider;
  if (capabilities.pairingCode) {
    if (values.pairByPhone) payload.pairingPhone = values.pairingPhone;
    else if (editing) payload.pairingPhone = null;
  }
  const pacing = hasPacing(provider) ? pacingOf(values) : undefined;
  if (pacing) payload.pacing = pacing;
  // The survey's fields go only when it is on, or to turn off a saved one.
  if (values.ratingOn) {
    payload.ratingMessage = values.ratingMessage;
    payload.ratingTimeoutMinutes = values.ratingTimeoutMinutes;
  } else if (values.ratingWasOn) payload.ratingMessage = "";
  if (provider === "cloud") {
    const { accessToken, appSecret, ...rest } = values.cloud;
    payload.cloud = {
      ...rest,
      // On edit a blank secret is left out, so the stored one is kept.
      ...(editing && !accessToken.trim() ? {} : { accessToken }),
      ...(editing && !appSecret.trim() ? {} : { appSecret }),
    };
  }
  return payload;
}

const schemaFor = (editing: boolean) => (editing ? connectionUpdateSchema : connectionInputSchema);

/**
 * core's own schema (create or update) run on the payload, its errors on the form's fields. On
 * success the form keeps its own values; `payloadOf` gives the parsed body to send.
 */
export function connectionResolver(editing: boolean): Resolver<ConnectionForm> {
  const validate = zodResolver(schemaFor(editing) as never) as unknown as Resolver<Record<string, unknown>>;
  return async (values, context, options) => {
    const result = await validate(toPayload(values, editing), context, options as never);
    return Object.keys(result.errors).length ? { values: {}, errors: result.errors as never } : { values, errors: {} };
  };
}

/** The validated body (phone numbers cleaned, defaults applied), once the resolver let the form submit. */
export function payloadOf(values: ConnectionForm, editing: boolean): CreatePayload | UpdatePayload {
  return schemaFor(editing).parse(toPayload(values, editing));
}
