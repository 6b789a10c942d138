import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { ERROR_MESSAGES, ERROR_STATUS, type ErrorBody } from "@zapdesk/core";
import type { ConnectionError, FastifyRequest } from "fastify";
import { AppError } from "../lib/app-error.js";

/** The longest URL (path and query) the API reads; no route needs more than a few hundred characters. */
export const MAX_URL_LENGTH = 8 * 1024;

/** Fastify's `maxParamLength`: a longer path segment matches no route. */
export const MAX_PARAM_LENGTH = 100;

/**
 * Whether an unmatched path has a segment too long for any route's parameter: the router only
 * reports that (FST_ERR_MAX_PARAM_LENGTH) when no other route could have matched.
 */
export const hasOverlongSegment = (path: string) => path.split("/").some((part) => part.length > MAX_PARAM_LENGTH);

/** onRequest hook: a URL over the limit is refused before routing, authentication or validation. */
export async function rejectLongUrls(request: FastifyRequest): Promise<void> {
  if (request.url.length > MAX_URL_LENGTH) throw new AppError("ERR_URL_TOO_LONG");
}

const urlTooLong: ErrorBody = { error: "ERR_URL_TOO_LONG", message: ERROR_MESSAGES.ERR_URL_TOO_LONG };

/**
 * Fastify's `clientErrorHandler`: requests Node's parser refuses before Fastify sees them (a request
 * line or headers over Node's 16 KiB) answer in the API's error shape rather than Fastify's.
 */
export function clientErrorHandler(error: ConnectionError, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  let status = 400;
  let body: ErrorBody = { error: "ERR_VALIDATION", message: "Malformed request" };
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    status = 408;
    body = { error: "ERR_VALIDATION", message: "Request timeout" };
  } else if (error.code === "HPE_HEADER_OVERFLOW") {
    // The request line alone over the limit is a long URL; otherwise the headers are too big.
    // Node hands over the bytes it read as a Buffer (Fastify's type shows its JSON form).
    const raw: unknown = error.rawPacket;
    const lineEnd = Buffer.isBuffer(raw) ? raw.indexOf("\r\n") : -1;
    const longUrl = lineEnd === -1 || lineEnd > MAX_URL_LENGTH;
    status = longUrl ? ERROR_STATUS.ERR_URL_TOO_LONG : 431;
    body = longUrl ? urlTooLong : { error: "ERR_VALIDATION", message: "Request headers are too large" };
  }
  if (socket.writable) {
    const payload = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`,
    );
  }
  socket.destroy(error);
}
