import { createHash, randomBytes } from "node:crypto";
import multipart from "@fastify/multipart";
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import { META_ERRORS, type MetaErrorCode, metaErrorBody } from "./meta-errors.js";

export interface GraphFakeAccount {
  phoneNumberId: string;
  businessAccountId: string;
  accessToken: string;
  displayPhoneNumber?: string;
  verifiedName?: string;
}

export interface RecordedRequest {
  method: string;
  /** Path after the version, e.g. "/123/messages". */
  path: string;
  query: Record<string, string>;
  authorization?: string;
  /** JSON body, or the multipart fields (the file as `{ filename, mimetype, size }`). */
  body: unknown;
  status: number;
}

export interface StoredMedia {
  id: string;
  data: Buffer;
  mimeType: string;
  filename?: string;
  /** The account (phone number id) that owns it: only its token may fetch it. */
  owner: string;
}

export interface ScriptedError {
  code: MetaErrorCode;
  /** Which calls fail: "messages" (sends and mark-as-read), "media" (uploads), "get" (GET /{id}), "templates", "download". */
  on?: "messages" | "media" | "get" | "templates" | "download";
  times?: number;
  details?: string;
}

/** A send Meta accepted: what the status webhooks of a real message would name. */
export interface AcceptedMessage {
  phoneNumberId: string;
  /** The wamid Meta gave it (in the answer, when the answer came). */
  id: string;
  to: string;
  type: string;
  body: Record<string, unknown>;
  /** Echoed by Meta in every status webhook of the message. */
  bizOpaqueCallbackData?: string;
}

export interface ScriptedDelay {
  /** "messages": the send is accepted at once, its answer held back; "media": the upload likewise. */
  on: "messages" | "media";
  ms: number;
  times?: number;
}

const MEDIA_URL_TTL_MS = 5 * 60 * 1000;
/** Meta's limits: error 100 beyond them. */
const TEXT_MAX = 4096;
const CAPTION_MAX = 1024;
const OPAQUE_MAX = 512;

/**
 * A WhatsApp account as Meta knows it: `waId` is WhatsApp's own id for the number (a Brazilian
 * account opened before the ninth digit keeps the 12-digit form), `aliases` other forms that
 * reach it (the 13-digit form an agent types), and its BSUID in this business portfolio.
 */
export interface FakeWhatsAppUser {
  waId: string;
  aliases?: string[];
  username?: string;
}

/** How a sent message was addressed, for the statuses Meta reports about it. */
export interface SentRecord {
  wamid: string;
  phoneNumberId: string;
  /** The number WhatsApp knows (wa_id), for a send with `to`. */
  waId?: string;
  /** The BSUID, for a send with `recipient` (or a number whose account the fake knows). */
  userId?: string;
  groupId?: string;
  /** The template's category, when one was sent. */
  templateCategory?: string;
  /** What the send carried as `biz_opaque_callback_data`, echoed in its statuses. */
  bizOpaqueCallbackData?: string;
}

const BSUID = /^[A-Z]{2}\.[A-Za-z0-9.]{1,140}$/;
const SEND_TYPES = ["text", "image", "audio", "video", "document", "sticker", "template", "reaction", "location"] as const;

/** The fake's state and routes; `startGraphFake` (index.ts) puts it on a port. */
export function createGraphServer(version: string) {
  const accounts = new Map<string, GraphFakeAccount>();
  const media = new Map<string, StoredMedia>();
  const templates = new Map<string, Record<string, unknown>[]>();
  const requests: RecordedRequest[] = [];
  const scripted: { code: MetaErrorCode; on: ScriptedError["on"]; times: number; details?: string }[] = [];
  const delays: { on: ScriptedDelay["on"]; ms: number; times: number }[] = [];
  const accepted: AcceptedMessage[] = [];
  const revoked = new Set<string>();
  const users: FakeWhatsAppUser[] = [];
  const groups = new Set<string>();
  const sent = new Map<string, SentRecord>();
  let origin = "";

  /** WhatsApp's id for a number as typed: the account's own form when the fake knows it. */
  const waIdOf = (typed: string) => {
    const digits = typed.replace(/\D/g, "");
    return users.find((u) => u.waId === digits || u.aliases?.includes(digits))?.waId ?? digits;
  };

  // Closing drops every connection: a held-back answer or an upload its client gave up on mid-body
  // (the multipart reader then waits for bytes that never come) must not keep the fake open.
  const app = Fastify({ logger: false, bodyLimit: 110 * 1024 * 1024, forceCloseConnections: true });
  void app.register(multipart, { limits: { fileSize: 100 * 1024 * 1024 } });

  const bearer = (request: FastifyRequest) => /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];

  function fail(reply: FastifyReply, code: MetaErrorCode, options: { message?: string; details?: string } = {}) {
    return reply.status(META_ERRORS[code].http).send(metaErrorBody(code, options));
  }

  /** A scripted failure for this kind of call, consumed once. */
  function takeScripted(on: ScriptedError["on"]) {
    const index = scripted.findIndex((s) => s.on === on);
    if (index < 0) return undefined;
    const script = scripted[index];
    script.times -= 1;
    if (script.times <= 0) scripted.splice(index, 1);
    return script;
  }

  /** How long to hold back this kind of answer (the work is done first, as Meta's slow answers are). */
  async function holdBack(on: ScriptedDelay["on"]) {
    const index = delays.findIndex((d) => d.on === on);
    if (index < 0) return;
    const delay = delays[index];
    delay.times -= 1;
    if (delay.times <= 0) delays.splice(index, 1);
    await new Promise((resolve) => setTimeout(resolve, delay.ms));
  }

  /** Graph answers 190 for a missing, unknown or revoked token; a token of another account cannot reach this one. */
  function authorize(request: FastifyRequest, reply: FastifyReply, owner?: GraphFakeAccount): boolean {
    const token = bearer(request);
    const account = [...accounts.values()].find((a) => a.accessToken === token);
    if (!token || !account || revoked.has(token)) {
      void fail(reply, 190, { message: "Invalid OAuth access token - Cannot parse access token" });
      return false;
    }
    if (owner && owner.accessToken !== token) {
      void fail(reply, 100, { message: "(#100) Missing permission" });
      return false;
    }
    return true;
  }

  app.addHook("onResponse", async (request, reply) => {
    const [path, search] = request.url.split("?");
    requests.push({
      method: request.method,
      path: path.replace(`/${version}`, ""),
      query: Object.fromEntries(new URLSearchParams(search ?? "")),
      authorization: request.headers.authorization,
      body: (request as FastifyRequest & { recorded?: unknown }).recorded ?? request.body ?? null,
      status: reply.statusCode,
    });
  });

  app.get<{ Params: { id: string } }>(`/${version}/:id`, async (request, reply) => {
    const account = accounts.get(request.params.id);
    const stored = media.get(request.params.id);
    const owner = account ?? (stored ? accounts.get(stored.owner) : undefined);
    if (!authorize(request, reply, owner)) return reply;
    const script = takeScripted("get");
    if (script) return fail(reply, script.code, script);
    if (account) {
      return {
        verified_name: account.verifiedName ?? "Zapdesk Test",
        display_phone_number: account.displayPhoneNumber ?? "+1 555-0100",
        quality_rating: "GREEN",
        id: account.phoneNumberId,
      };
    }
    if (stored) {
      const expires = Date.now() + MEDIA_URL_TTL_MS;
      return {
        messaging_product: "whatsapp",
        url: `${origin}/whatsapp_business/attachments/?mid=${stored.id}&ext=${expires}&hash=${randomBytes(6).toString("hex")}`,
        mime_type: stored.mimeType,
        sha256: createHash("sha256").update(stored.data).digest("hex"),
        file_size: String(stored.data.length),
        id: stored.id,
      };
    }
    return fail(reply, 100, {
      message: `Unsupported get request. Object with ID '${request.params.id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    });
  });

  // The short-lived media URL: downloaded with the same bearer token, refused once expired.
  app.get<{ Querystring: { mid?: string; ext?: string } }>("/whatsapp_business/attachments/", async (request, reply) => {
    const stored = media.get(request.query.mid ?? "");
    if (!stored) return reply.status(404).send("Not found");
    if (!authorize(request, reply, accounts.get(stored.owner))) return reply;
    if (Number(request.query.ext) < Date.now()) return reply.status(404).send("URL expired");
    const script = takeScripted("download");
    if (script) return fail(reply, script.code, script);
    return reply.type(stored.mimeType).send(stored.data);
  });

  app.post<{ Params: { phoneId: string } }>(`/${version}/:phoneId/messages`, async (request, reply) => {
    const account = accounts.get(request.params.phoneId);
    if (!account) return fail(reply, 100, { message: "(#100) Invalid parameter" });
    if (!authorize(request, reply, account)) return reply;
    const script = takeScripted("messages");
    if (script) return fail(reply, script.code, script);
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (body.messaging_product !== "whatsapp") return fail(reply, 100, { details: "messaging_product is required" });
    if (body.status === "read") {
      return typeof body.message_id === "string" ? { success: true } : fail(reply, 100, { details: "message_id is required" });
    }
    const problem = checkSend(body);
    if (problem) return fail(reply, 100, { details: problem });
    const wamid = `wamid.${randomBytes(24).toString("base64")}`;
    const record: SentRecord = { wamid, phoneNumberId: account.phoneNumberId };
    const template = body.type === "template" ? (body.template as { name?: string }) : undefined;
    if (template) {
      record.templateCategory = String(
        (templates.get(account.businessAccountId) ?? []).find((t) => t.name === template.name)?.category ?? "",
      );
    }
    let contact: Record<string, string>;
    if (body.recipient_type === "group") {
      record.groupId = String(body.to);
      contact = { input: record.groupId };
    } else if (typeof body.to === "string") {
      // `to` wins when both are given; the answer names WhatsApp's own id for the number.
      record.waId = waIdOf(body.to);
      contact = { input: body.to, wa_id: record.waId };
    } else {
      record.userId = String(body.recipient);
      // One-tap, zero-tap and copy-code authentication templates need a phone number.
      if (record.templateCategory === "AUTHENTICATION") return fail(reply, 131062);
      contact = { input: record.userId, user_id: record.userId };
    }
    const opaque = typeof body.biz_opaque_callback_data === "string" ? body.biz_opaque_callback_data : undefined;
    if (opaque !== undefined) record.bizOpaqueCallbackData = opaque;
    sent.set(wamid, record);
    // Taken before answering: a client that gives up waiting has still sent it, and statuses follow.
    accepted.push({
      phoneNumberId: account.phoneNumberId,
      id: wamid,
      to: record.waId ?? record.groupId ?? record.userId ?? "",
      type: String(body.type),
      body,
      ...(opaque !== undefined ? { bizOpaqueCallbackData: opaque } : {}),
    });
    await holdBack("messages");
    return { messaging_product: "whatsapp", contacts: [contact], messages: [{ id: wamid }] };
  });

  /** What Meta refuses with 100 before sending: a body the type does not describe, a media id nobody uploaded. */
  function checkSend(body: Record<string, unknown>): string | undefined {
    if (body.recipient_type === "group") {
      if (typeof body.to !== "string" || !groups.has(body.to)) return "to must be the id of a group of this number";
    } else if (body.to !== undefined) {
      if (typeof body.to !== "string" || !/^\+?\d{6,20}$/.test(body.to)) return "to must be a phone number";
    } else if (typeof body.recipient !== "string" || !BSUID.test(body.recipient)) {
      return "to (a phone number) or recipient (a business-scoped user id) is required";
    }
    const type = body.type as (typeof SEND_TYPES)[number];
    if (!SEND_TYPES.includes(type)) return `Unsupported message type ${String(body.type)}`;
    const object = body[type] as Record<string, unknown> | undefined;
    if (!object || typeof object !== "object") return `${type} object is required`;
    if (type === "text" && (typeof object.body !== "string" || !object.body)) return "text.body is required";
    if (type === "text" && String(object.body).length > TEXT_MAX)
      return `Param text['body'] must be at most ${TEXT_MAX} characters long`;
    if (typeof object.caption === "string" && object.caption.length > CAPTION_MAX)
      return `Param ${type}['caption'] must be at most ${CAPTION_MAX} characters long`;
    if (type === "audio" && object.voice !== undefined && typeof object.voice !== "boolean")
      return "audio.voice must be a boolean";
    const opaque = body.biz_opaque_callback_data;
    if (opaque !== undefined && (typeof opaque !== "string" || opaque.length > OPAQUE_MAX))
      return `biz_opaque_callback_data must be a string of at most ${OPAQUE_MAX} characters`;
    if (["image", "audio", "video", "document", "sticker"].includes(type)) {
      if (typeof object.id !== "string" && typeof object.link !== "string") return `${type}.id or ${type}.link is required`;
      if (typeof object.id === "string" && !media.has(object.id)) return `Media ${object.id} not found`;
    }
    if (type === "template") {
      const language = object.language as { code?: unknown } | undefined;
      if (typeof object.name !== "string" || typeof language?.code !== "string")
        return "template name and language.code are required";
    }
    const context = body.context as { message_id?: unknown } | undefined;
    if (context !== undefined && typeof context.message_id !== "string") return "context.message_id must be a string";
    return undefined;
  }

  app.post<{ Params: { phoneId: string } }>(`/${version}/:phoneId/media`, async (request, reply) => {
    const account = accounts.get(request.params.phoneId);
    if (!account) return fail(reply, 100);
    if (!authorize(request, reply, account)) return reply;
    const fields: Record<string, unknown> = {};
    let file: { data: Buffer; filename: string; mimetype: string } | undefined;
    for await (const part of request.parts()) {
      if (part.type === "file") file = { data: await part.toBuffer(), filename: part.filename, mimetype: part.mimetype };
      else fields[part.fieldname] = part.value;
    }
    (request as FastifyRequest & { recorded?: unknown }).recorded = {
      ...fields,
      file: file && { filename: file.filename, mimetype: file.mimetype, size: file.data.length },
    };
    const script = takeScripted("media");
    if (script) return fail(reply, script.code, script);
    if (fields.messaging_product !== "whatsapp" || !file || typeof fields.type !== "string") {
      return fail(reply, 100, { details: "messaging_product, type and file are required" });
    }
    const id = String(BigInt(`0x${randomBytes(7).toString("hex")}`));
    media.set(id, { id, data: file.data, mimeType: fields.type, filename: file.filename, owner: account.phoneNumberId });
    await holdBack("media");
    return { id };
  });

  app.get<{ Params: { wabaId: string }; Querystring: { limit?: string; after?: string } }>(
    `/${version}/:wabaId/message_templates`,
    async (request, reply) => {
      const account = [...accounts.values()].find((a) => a.businessAccountId === request.params.wabaId);
      if (!account) return fail(reply, 100);
      if (!authorize(request, reply, account)) return reply;
      const script = takeScripted("templates");
      if (script) return fail(reply, script.code, script);
      const all = templates.get(account.businessAccountId) ?? [];
      const limit = Math.min(Number(request.query.limit) || 25, 100);
      const start = request.query.after ? Number(Buffer.from(request.query.after, "base64url").toString()) : 0;
      const page = all.slice(start, start + limit);
      const cursor = (n: number) => Buffer.from(String(n)).toString("base64url");
      const more = start + limit < all.length;
      const after = cursor(start + page.length);
      return {
        data: page,
        paging: {
          cursors: { before: cursor(start), after },
          ...(more
            ? { next: `${origin}/${version}/${account.businessAccountId}/message_templates?limit=${limit}&after=${after}` }
            : {}),
        },
      };
    },
  );

  return {
    app,
    accounts,
    media,
    templates,
    requests,
    scripted,
    delays,
    accepted,
    revoked,
    users,
    groups,
    sent,
    setOrigin(value: string) {
      origin = value;
    },
  };
}
