import { createECDH, randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";

const require = createRequire(import.meta.url);
const ece = require("http_ece") as { decrypt(buffer: Buffer, params: Record<string, unknown>): Buffer };

/** What the fake push service received. */
export interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Tests only: a local push service on http://127.0.0.1 that records each POST and answers the
 * status a test sets per path (default 201), and a browser's side (its keys) to decrypt with.
 */
export async function startFakePushService() {
  const received: ReceivedPush[] = [];
  const statusFor = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks) });
      response.statusCode = statusFor.get(path) ?? 201;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** A browser subscription: its endpoint on the fake and the keys only "the browser" holds. */
  function browser(name: string) {
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    const auth = randomBytes(16).toString("base64url");
    const endpoint = `${base}/push/${name}`;
    return {
      endpoint,
      path: `/push/${name}`,
      subscription: { endpoint, expirationTime: null, keys: { p256dh: ecdh.getPublicKey("base64url"), auth } },
      decrypt: (body: Buffer) =>
        JSON.parse(ece.decrypt(body, { version: "aes128gcm", privateKey: ecdh, authSecret: auth }).toString("utf8")),
    };
  }

  return {
    received,
    statusFor,
    browser,
    to: (path: string) => received.filter((r) => r.path === path),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
