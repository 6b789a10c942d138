import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from "@zapdesk/core";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "../lib/app-error.js";
import { createOutageMonitor } from "./database-outage.js";
import { registerErrorHandler, toErrorResponse } from "./error-handler.js";

/** The table owns every status: whatever is thrown, the answer's status is the table's for its code. */
describe("the error table owns the statuses", () => {
  const app = Fastify({ logger: false });

  beforeAll(async () => {
    const outage = createOutageMonitor({ probe: async () => undefined, logger: app.log });
    registerErrorHandler(app, outage);
    app.get<{ Params: { code: ErrorCode } }>("/throw/:code", async (request) => {
      throw new AppError(request.params.code);
    });
    app.post("/json", async () => ({ ok: true }));
    await app.ready();
  });
  afterAll(() => app.close());

  it("answers each catalogue code with the table's status", async () => {
    for (const code of ERROR_CODES) {
      const res = await app.inject({ method: "GET", url: `/throw/${code}` });
      expect(res.statusCode, code).toBe(ERROR_STATUS[code]);
      expect(res.json().error, code).toBe(code);
    }
  });

  it("maps framework, schema and database failures to a code whose table status is the one answered", () => {
    const pg = (code: string) => Object.assign(new Error("pg"), { code, severity: "ERROR" });
    const fastify = (code: string, statusCode: number) => Object.assign(new Error(code), { code, statusCode });
    const samples: [string, unknown][] = [
      ["zod", z.object({ a: z.string() }).safeParse({}).error],
      ["bad json", fastify("FST_ERR_CTP_INVALID_JSON_BODY", 400)],
      ["body too large", fastify("FST_ERR_CTP_BODY_TOO_LARGE", 413)],
      ["file too large", fastify("FST_REQ_FILE_TOO_LARGE", 413)],
      ["too many files", fastify("FST_FILES_LIMIT", 413)],
      ["wrong media type", fastify("FST_ERR_CTP_INVALID_MEDIA_TYPE", 415)],
      ["not multipart", fastify("FST_INVALID_MULTIPART_CONTENT_TYPE", 406)],
      ["long param", fastify("FST_ERR_MAX_PARAM_LENGTH", 414)],
      ["rate limit", fastify("FST_TOO_MANY", 429)],
      ["plugin 404", fastify("FST_SOMETHING", 404)],
      ["plugin 405", fastify("FST_SOMETHING", 405)],
      ["unique", pg("23505")],
      ["foreign key", pg("23503")],
      ["nul byte", pg("22021")],
      ["statement timeout", pg("57014")],
      ["out of range", pg("22003")],
      ["bug", new TypeError("x is undefined")],
    ];
    for (const [label, error] of samples) {
      const { status, body } = toErrorResponse(error);
      expect(ERROR_STATUS[body.error], `${label}: ${body.error}`).toBe(status);
    }
  });

  it("answers a body over the limit and a wrong content type with their table codes", async () => {
    const huge = await app.inject({
      method: "POST",
      url: "/json",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ text: "x".repeat(1_100_000) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error).toBe("ERR_PAYLOAD_TOO_LARGE");
    const form = await app.inject({
      method: "POST",
      url: "/json",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "a=1",
    });
    expect(form.statusCode).toBe(415);
    expect(form.json().error).toBe("ERR_UNSUPPORTED_MEDIA_TYPE");
  });
});
