import { ERROR_MESSAGES, ERROR_STATUS, type ErrorCode, type ErrorDetail } from "@zapdesk/core";

/**
 * Every expected failure is thrown as a catalogue code; its HTTP status is the table's
 * (core's `ERROR_STATUS`), never set at the throw site.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: ErrorDetail[];
  /** Sent as `Retry-After` (rate limits). */
  readonly retryAfterSeconds?: number;

  constructor(code: ErrorCode, options: { message?: string; details?: ErrorDetail[]; retryAfterSeconds?: number } = {}) {
    super(options.message ?? ERROR_MESSAGES[code]);
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** A validation failure on one field, shaped like the schema's own errors. */
export function fieldError(path: string, message: string): AppError {
  return new AppError("ERR_VALIDATION", { details: [{ path: [path], message }] });
}
