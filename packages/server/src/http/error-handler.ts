import { ERROR_MESSAGES, ERROR_STATUS, type ErrorBody, type ErrorDetail } from "@zapdesk/core";
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

/** Fastify's own client errors (bad JSON, huge body, wrong content type) keep their 4xx status. */
const FRAMEWORK_CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: "Malformed JSON body",
  FST_ERR_CTP_EMPTY_JSON_BODY: "Empty JSON body",
  FST_ERR_CTP_BODY_TOO_LARGE: "Request body is too large",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "Unsupported content type",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "Invalid content length",
  FST_INVALID_MULTIPART_CONTENT_TYPE: "Expected a multipart body",
  FST_REQ_FILE_TOO_LARGE: "File is too large",
  FST_FILES_LIMIT: "Too many files",
  FST_PARTS_LIMIT: "Too many parts",
  FST_FIELDS_LIMIT: "Too many fields",
  FST_ERR_VALIDATION: "Invalid request",
  FST_ERR_BAD_URL: "Invalid URL",
};

function appErrorResponse(error: AppError) {
  return {
    status: error.status,
    body: { error: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
    unexpected: false,
  };
}

export function toErrorResponse(error: unknown): { status: number; body: ErrorBody; unexpected: boolean } {
  if (error instanceof AppError) return appErrorResponse(error);
  if (hasZodFastifySchemaValidationErrors(error)) {
    const details: ErrorDetail[] = error.validation.map((v) => ({
      path: toPath(v.instancePath),
      message: v.message ?? "Invalid",
    }));
    return {
      status: 400,
      body: { error: "ERR_VALIDATION", message: `Invalid ${error.validationContext ?? "request"}`, details },
      unexpected: false,
    };
  }
  const fastifyError = error as Partial<FastifyError>;
  if (fastifyError.code === "FST_ERR_MAX_PARAM_LENGTH") return appErrorResponse(new AppError("ERR_URL_TOO_LONG"));
  if (fastifyError.code && fastifyError.code in FRAMEWORK_CLIENT_ERRORS) {
    const status = fastifyError.statusCode && fastifyError.statusCode < 500 ? fastifyError.statusCode : 400;
    return { status, body: { error: "ERR_VALIDATION", message: FRAMEWORK_CLIENT_ERRORS[fastifyError.code] }, unexpected: false };
  }
  if (fastifyError.statusCode === 429) {
    return { status: 429, body: { error: "ERR_RATE_LIMITED", message: "Too many requests" }, unexpected: false };
  }
  // Safety nets: a constraint the service did not anticipate is still the client's fault.
  const sqlState = pgErrorCode(error);
  if (sqlState === "23505") {
    return { status: 409, body: { error: "ERR_VALIDATION", message: "This record already exists" }, unexpected: false };
  }
  if (sqlState === "23503") {
    return { status: 400, body: { error: "ERR_VALIDATION", message: "A referenced record does not exist" }, unexpected: false };
  }
  // NUL bytes and other characters PostgreSQL cannot store in text.
  if (sqlState === "22021" || sqlState === "22P05") {
    return {
      status: 400,
      body: { error: "ERR_VALIDATION", message: "Text contains a character that is not allowed" },
      unexpected: false,
    };
  }
  // Issue 19: a search or dashboard read that ran past the heavy-read pool's statement_timeout.
  if (sqlState === "57014") return appErrorResponse(new AppError("ERR_QUERY_TIMEOUT"));
  if (sqlState === "22P02" || sqlState === "22003" || sqlState === "22001") {
    return { status: 400, body: { error: "ERR_VALIDATION", message: "A value is out of range" }, unexpected: false };
  }
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return { status: fastifyError.statusCode, body: { error: "ERR_VALIDATION", message: "Invalid request" }, unexpected: false };
  }
  return { status: 500, body: { error: "ERR_INTERNAL", message: "An internal error occurred." }, unexpected: true };
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
