import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { SendFailure } from "../channel.js";
import { type SendingState, trackSending } from "./graph-sent.js";

/** What Meta answered with an error body: `{ error: { message, type, code, error_subcode, error_data, fbtrace_id } }`. */
export class GraphError extends Error {
  constructor(
    readonly code: number,
    /** Readable reason: Meta's message without its "(#code) " prefix, plus `error_data.details`. */
    readonly title: string,
    readonly httpStatus: number,
    readonly subcode?: number,
    readonly fbtraceId?: string,
  ) {
    super(`Graph error ${code}: ${title}`);
    this.name = "GraphError";
  }
}

const reasonOf = (cause: unknown) => {
  const error = cause as Error & { cause?: { code?: string; message?: string } };
  const detail = error?.cause?.code ?? error?.cause?.message;
  return `${error?.message ?? String(cause)}${detail ? ` (${detail})` : ""}`;
};

/**
 * The request never left: connection refused, DNS, TLS, or the deadline passed before its body
 * was written. Nothing reached Meta, so it may be sent again. `timedOut`: only slow, which says
 * nothing about the Graph API as a whole.
 */
export class GraphUnreachable extends Error {
  constructor(
    cause: unknown,
    readonly timedOut = false,
  ) {
    super(`Graph API unreachable: ${reasonOf(cause)}`);
    this.name = "GraphUnreachable";
  }
}

/**
 * The request left but its answer did not come: the deadline passed, or the connection broke
 * after the body was written. Meta may well have acted on it (a send may be delivered), so a send
 * must not be repeated; one slow answer says nothing about the connection either.
 */
export class GraphNoAnswer extends Error {
  constructor(cause: unknown) {
    super(`Graph API did not answer in time: ${reasonOf(cause)}`);
    this.name = "GraphNoAnswer";
  }
}

/** 190: the token expired or was revoked; nothing works until an admin pastes a new one. */
export const TOKEN_INVALID_CODE = 190;

/**
 * Meta's codes worth retrying, with how long to wait at least: throughput (130429), the pair rate
 * to one customer (131056, about one message every 6 s), and the generic temporary ones (1, 2,
 * 131000 "something went wrong", 131016 service unavailable). Everything else is permanent.
 */
const TRANSIENT_WAIT_MS: Record<number, number> = {
  130429: 2_000,
  131056: 6_000,
  1: 5_000,
  2: 5_000,
  4: 30_000,
  80007: 30_000,
  131000: 5_000,
  131016: 10_000,
};

export const isTransient = (code: number) => code in TRANSIENT_WAIT_MS;

/** A refused send as the outbox understands it: Meta's code and reason, permanent or not. */
export function toSendFailure(error: unknown): SendFailure {
  if (error instanceof GraphError) {
    const transient = isTransient(error.code) || error.code === TOKEN_INVALID_CODE || error.httpStatus >= 500;
    return new SendFailure(String(error.code), error.title, !transient, TRANSIENT_WAIT_MS[error.code]);
  }
  if (error instanceof GraphUnreachable) return new SendFailure("CLOUD_UNREACHABLE", error.message, false);
  if (error instanceof GraphNoAnswer) return new SendFailure("CLOUD_TIMEOUT", error.message, false);
  return new SendFailure("CLOUD_ERROR", String((error as Error)?.message ?? error), false);
}

export interface GraphClientOptions {
  /** WHATSAPP_GRAPH_URL: the base including the version. */
  baseUrl: string;
  accessToken: string;
  /** A call's deadline, answer included. */
  timeoutMs?: number;
  /** An upload's or a media download's deadline: files take longer than calls. */
  mediaTimeoutMs?: number;
  fetch?: typeof fetch;
}

const DEFAULT_TIMEOUT_MS = 20_000;
const DEFAULT_MEDIA_TIMEOUT_MS = 120_000;

/** How a failed fetch is told apart: not sent (safe to repeat) or sent without an answer. */
function fetchFailure(error: unknown, state: SendingState): Error {
  const timedOut = (error as Error)?.name === "TimeoutError";
  // A fetch undici did not report (an injected one) may have sent anything: a timeout is no answer.
  if (state.sent || (!state.seen && timedOut)) return new GraphNoAnswer(error);
  return new GraphUnreachable(error, timedOut);
}

async function readError(res: Response): Promise<GraphError> {
  const text = await res.text().catch(() => "");
  let body: {
    error?: { message?: string; code?: number; error_subcode?: number; error_data?: { details?: string }; fbtrace_id?: string };
  } = {};
  try {
    body = JSON.parse(text);
  } catch {
    // Not Graph's JSON (a proxy page): the HTTP status is all there is.
  }
  const e = body.error ?? {};
  const message = (e.message ?? (text.slice(0, 200) || res.statusText)).replace(/^\(#\d+\)\s*/, "");
  const details = e.error_data?.details;
  const title = details && !message.includes(details) ? `${message}: ${details}` : message;
  return new GraphError(Number(e.code ?? res.status), title, res.status, e.error_subcode, e.fbtrace_id);
}

/** A thin Graph API client: bearer token, timeouts, Meta's errors as GraphError, no retries (the callers decide). */
export function createGraphClient(options: GraphClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, "");
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const mediaTimeoutMs = options.mediaTimeoutMs ?? DEFAULT_MEDIA_TIMEOUT_MS;
  const auth = { authorization: `Bearer ${options.accessToken}` };

  async function call(url: string, init: RequestInit = {}, deadlineMs = timeoutMs): Promise<Response> {
    const state: SendingState = { seen: false, sent: false };
    let res: Response;
    try {
      res = await trackSending(state, () =>
        doFetch(url, {
          ...init,
          headers: { ...auth, ...(init.headers as Record<string, string>) },
          signal: AbortSignal.timeout(deadlineMs),
          redirect: "error",
        }),
      );
    } catch (error) {
      throw fetchFailure(error, state);
    }
    if (!res.ok) throw await readError(res);
    return res;
  }

  /** The answer's JSON; one that stops coming before its end is no answer (the request did arrive). */
  async function json<T>(res: Response): Promise<T> {
    try {
      return (await res.json()) as T;
    } catch (error) {
      throw new GraphNoAnswer(error);
    }
  }

  const path = (p: string, query?: Record<string, string | number | undefined>) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(key, String(value));
    const search = params.toString();
    return `${base}/${p.replace(/^\/+/, "")}${search ? `?${search}` : ""}`;
  };

  return {
    async get<T>(p: string, query?: Record<string, string | number | undefined>): Promise<T> {
      return json<T>(await call(path(p, query)));
    },
    async postJson<T>(p: string, body: unknown): Promise<T> {
      const res = await call(path(p), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return json<T>(res);
    },
    /** A multipart upload, under the media deadline. */
    async postForm<T>(p: string, form: FormData): Promise<T> {
      return json<T>(await call(path(p), { method: "POST", body: form }, mediaTimeoutMs));
    },
    /**
     * Fetch a media URL Meta handed out, with the bearer token, as a stream; refuses what declares
     * more than `maxBytes` before reading any of it (storage caps what does not declare its size).
     */
    async download(url: string, maxBytes: number): Promise<Readable> {
      const res = await call(url, {}, mediaTimeoutMs);
      const declared = Number(res.headers.get("content-length") ?? 0);
      if (declared > maxBytes) {
        await res.body?.cancel();
        throw new Error(`media of ${declared} bytes is over the limit`);
      }
      return res.body ? Readable.fromWeb(res.body as NodeReadableStream) : Readable.from([]);
    },
  };
}

export type GraphClient = ReturnType<typeof createGraphClient>;
