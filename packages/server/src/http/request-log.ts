import { LogController } from "fastify";

/**
 * Production's request log (issue 10 item 3): a line per request cost more than a short request's
 * own work, so the "incoming request" and "request completed" lines go to debug level (LOG_LEVEL=debug
 * shows them); a request that errored is still logged at error level, and the rest of Fastify's
 * lines (unknown routes, errors, warnings) are unchanged.
 */
export class QuietRequestLog extends LogController {
  override incomingRequest(request: Parameters<LogController["incomingRequest"]>[0]): void {
    request.log.debug({ req: request }, "incoming request");
  }

  override requestCompleted(...[error, , reply]: Parameters<LogController["requestCompleted"]>): void {
    if (error) reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, "request errored");
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, "request completed");
  }
}
