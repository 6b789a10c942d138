import { ERROR_MESSAGES, ERROR_STATUS, type ErrorBody, type ErrorCode, type ErrorDetail } from "@zapdesk/core";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError } from "../lib/app-error.js";
import { pgErrorCode } from "../lib/pg-errors.js";
import { isDatabaseUnavailable, type OutageMonitor, RETRY_AFTER_SECONDS } from "./database-outage.js";

function toPath(instancePath: string): (string | number)[] {
  return instancePath
    .split("/")
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** Fastify's own client errors (bad JSON, huge body, wrong content type), each with its catalogue code. */
const FRAMEWORK_CLIENT_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: "ERR_VALIDATION", message: "Malformed JSON body" },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: "ERR_VALIDATION", message: "Empty JSON body" },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: "ERR_PAYLOAD_TOO_LARGE", message: "Request body is too large" },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: "ERR_UNSUPPORTED_MEDIA_TYPE", message: "Unsupported content type" },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: "ERR_VALIDATION", message: "Invalid content length" },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { code: "ERR_UNSUPPORTED_MEDIA_TYPE", message: "Expected a multipart body" },
  FST_REQ_FILE_TOO_LARGE: { code: "ERR_PAYLOAD_TOO_LARGE", message: "File is too large" },
  FST_FILES_LIMIT: { code: "ERR_PAYLOAD_TOO_LARGE", message: "Too many files" },
  FST_PARTS_LIMIT: { code: "ERR_PAYLOAD_TOO_LARGE", message: "Too many parts" },
  FST_FIELDS_LIMIT: { code: "ERR_PAYLOAD_TOO_LARGE", message: "Too many fields" },
  FST_ERR_VALIDATION: { code: "ERR_VALIDATION", message: "Invalid request" },
  FST_ERR_BAD_URL: { code: "ERR_VALIDATION", message: "Invalid URL" },
};

/** Any other 4xx the framework or a plugin raises, by its status. */
const CLIENT_STATUS_CODES: Record<number, ErrorCode> = {
  404: "ERR_NOT_FOUND",
  413: "ERR_PAYLOAD_TOO_LARGE",
  415: "ERR_UNSUPPORTED_MEDIA_TYPE",
  429: "ERR_RATE_LIMITED",
};

type ErrorResponse = { status: number; body: ErrorBody; unexpected: boolean };

/** The one way an error becomes an answer: the status is always the table's for the code. */
function answer(code: ErrorCode, message: string = ERROR_MESSAGES[code], details?: ErrorDetail[]): ErrorResponse {
  return {
    status: ERROR_STATUS[code],
    body: { error: code, message, ...(details ? { details } : {}) },
    unexpected: code === "ERR_INTERNAL",
  };
}

export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof AppError) return { ...answer(error.code, error.message, error.details), unexpected: false };
  if (hasZodFastifySchemaValidationErrors(error)) {
    const details: ErrorDetail[] = error.validation.map((v) => ({
      path: toPath(v.instancePath),
      message: v.message ?? "Invalid",
    }));
    return answer("ERR_VALIDATION", `Invalid ${error.validationContext ?? "request"}`, details);
  }
  const fastifyError = error as Partial<FastifyError>;
  if (fastifyError.code === "FST_ERR_MAX_PARAM_LENGTH") return answer("ERR_URL_TOO_LONG");
  if (fastifyError.code && fastifyError.code in FRAMEWORK_CLIENT_ERRORS) {
    const known = FRAMEWORK_CLIENT_ERRORS[fastifyError.code];
    return answer(known.code, known.message);
  }
  if (fastifyError.statusCode === 429) return answer("ERR_RATE_LIMITED", "Too many requests");
  // Safety nets: a constraint the service did not anticipate is still the client's fault.
  const sqlState = pgErrorCode(error);
  if (sqlState === "23505") return answer("ERR_ALREADY_EXISTS", "This record already exists");
  if (sqlState === "23503") return answer("ERR_VALIDATION", "A referenced record does not exist");
  // NUL bytes and other characters PostgreSQL cannot store in text.
  if (sqlState === "22021" || sqlState === "22P05")
    return answer("ERR_VALIDATION", "Text contains a character that is not allowed");
  // A search or dashboard read that ran past the heavy-read pool's statement_timeout.
  if (sqlState === "57014") return answer("ERR_QUERY_TIMEOUT");
  if (sqlState === "22P02" || sqlState === "22003" || sqlState === "22001")
    return answer("ERR_VALIDATION", "A value is out of range");
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return answer(CLIENT_STATUS_CODES[fastifyError.statusCode] ?? "ERR_VALIDATION", "Invalid request");
  }
  return answer("ERR_INTERNAL", "An internal error occurred.");
}

/**
 * For Fastify's `frameworkErrors` option: errors the router raises before any
 * handler (a badly encoded URL, an over-long path parameter) in the same shape.
 */
export function frameworkErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const { status, body } = toErrorResponse(error);
  request.log.debug({ code: body.error }, "request refused by the router");
  reply.status(status).send(body);
}

export function registerErrorHandler(app: FastifyInstance, outage: OutageMonitor): void {
  app.setErrorHandler((error, request, reply) => {
    // The database is down: clients retry; the outage is logged once, not per request.
    if (isDatabaseUnavailable(error)) {
      outage.failed(error);
      const body: ErrorBody = { error: "ERR_SERVICE_UNAVAILABLE", message: ERROR_MESSAGES.ERR_SERVICE_UNAVAILABLE };
      return reply.status(ERROR_STATUS.ERR_SERVICE_UNAVAILABLE).header("retry-after", RETRY_AFTER_SECONDS).send(body);
    }
    const { status, body, unexpected } = toErrorResponse(error);
    if (unexpected) request.log.error({ err: error, reqId: request.id }, "unhandled error");
    else request.log.debug({ code: body.error }, "request refused");
    if (error instanceof AppError && error.retryAfterSeconds) reply.header("Retry-After", String(error.retryAfterSeconds));
    reply.status(status).send(body);
  });
}
