import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { performance } from "node:perf_hooks";
import { guardedLookup, ipLiteralOf, isBlockedAddress } from "./target-guard.js";

export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of the receiver's answer is kept. */
export const SNIPPET_BYTES = 1024;

export interface PostOutcome {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  snippet: string | null;
  error: string | null;
}

/**
 * One POST to a webhook: http(s) only, the address checked (and pinned by the socket's lookup),
 * no redirect followed (a 3xx is a failure), a deadline for the whole exchange, and only the first
 * kilobyte of the answer read.
 */
export function postJson(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivate: boolean; timeoutMs?: number },
): Promise<PostOutcome> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const failed = (error: string, status: number | null = null, snippet: string | null = null): PostOutcome => ({
    ok: false,
    status,
    latencyMs: latency(),
    snippet,
    error,
  });
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return Promise.resolve(failed("The URL is not valid"));
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return Promise.resolve(failed("Only http and https are allowed"));
  const literal = ipLiteralOf(url);
  if (literal && !options.allowPrivate && isBlockedAddress(literal))
    return Promise.resolve(failed(`ERR_WEBHOOK_PRIVATE_TARGET: ${literal} is a private address`));

  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(outcome);
    };
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
        lookup: guardedLookup(options.allowPrivate),
        agent: false,
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const snippet = Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString("utf8");
          const status = res.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          let error: string | null = null;
          if (status >= 300 && status < 400) error = `Redirect not followed (${status} to ${res.headers.location ?? "?"})`;
          else if (!ok) error = `HTTP ${status}`;
          res.destroy();
          finish({ ok, status, latencyMs: latency(), snippet: snippet || null, error });
        };
        res.on("data", (chunk: Buffer) => {
          if (size >= SNIPPET_BYTES) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= SNIPPET_BYTES) done();
        });
        res.on("end", done);
        res.on("error", (error) => finish(failed(error.message, res.statusCode ?? null)));
      },
    );
    // The whole exchange, answer included: a receiver that trickles its answer is cut off too.
    const deadline = setTimeout(() => {
      finish(failed(`Timed out after ${options.timeoutMs ?? DELIVERY_TIMEOUT_MS} ms`));
      req.destroy();
    }, options.timeoutMs ?? DELIVERY_TIMEOUT_MS);
    req.on("error", (error: Error & { code?: string }) => {
      const code = error.code?.startsWith("ERR_WEBHOOK") ? `${error.code}: ` : "";
      finish(failed(`${code}${error.message}`));
    });
    req.end(body);
  });
}
