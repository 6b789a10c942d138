import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { customerNumber, customerWrites, listTickets, makeSimulatorConnection } from "../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../test/factories.js";
import { createTestApp, type TestApp } from "../../test/harness.js";
import { multipart } from "../../test/multipart.js";
import { listen } from "../../test/sockets.js";
import { createUploadBudget } from "./upload-budget.js";

const KB = 1024;
const pdf = (size: number) => Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(size, 32)]);

describe("uploads in flight are bounded", () => {
  // Room for one 200 KB upload at a time; a second waits at most 1.5 s.
  const budget = createUploadBudget({ maxBytes: 300 * KB, maxWaitMs: 1500 });
  let t: TestApp;
  let base: string;
  let admin: TestUser;
  let ticketId: number;

  beforeAll(async () => {
    t = await createTestApp({ uploadBudget: budget });
    base = await listen(t);
    admin = await makeAdmin(t);
    const connection = await makeSimulatorConnection(t, admin, { isDefault: true });
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, body: "hello" });
    ticketId = (await listTickets(t, admin, { showAll: "true", searchParam: from })).tickets[0].id;
    const accepted = await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${ticketId}`,
      headers: admin.auth,
      payload: { status: "open", userId: admin.id },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
  });
  afterAll(() => t.close());

  /** A multipart send over real HTTP whose body is written in two halves, the second when the test says. */
  function slowUpload(size: number) {
    const body = multipart([{ name: "medias", value: pdf(size), filename: "big.pdf", type: "application/pdf" }]);
    const half = Math.floor(body.payload.length / 2);
    let status: number | undefined;
    const done = new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${base}/api/messages/${ticketId}`, {
        method: "POST",
        headers: { ...admin.auth, ...body.headers, "content-length": String(body.payload.length) },
      });
      req.on("response", (res) => {
        status = res.statusCode;
        res.resume();
        res.on("end", () => resolve(res.statusCode as number));
      });
      req.on("error", reject);
      req.write(body.payload.subarray(0, half));
      slowUpload.finish.push(() => req.end(body.payload.subarray(half)));
    });
    return {
      done,
      get status() {
        return status;
      },
    };
  }
  slowUpload.finish = [] as (() => void)[];

  const send = (size: number) => {
    const body = multipart([{ name: "medias", value: pdf(size), filename: "doc.pdf", type: "application/pdf" }]);
    return fetch(`${base}/api/messages/${ticketId}`, {
      method: "POST",
      headers: { ...admin.auth, ...body.headers },
      body: body.payload,
    });
  };

  it("an upload that does not fit waits, unread, until one in flight is done", async () => {
    const first = slowUpload(200 * KB);
    await vi.waitFor(() => expect(budget.inUse).toBeGreaterThan(200 * KB));
    const second = send(200 * KB);
    await vi.waitFor(() => expect(budget.waiting).toBe(1));
    expect(first.status).toBeUndefined();
    // The first finishes: the second is read and answered in its turn.
    slowUpload.finish.shift()?.();
    expect(await first.done).toBe(201);
    expect((await second).status).toBe(201);
    await vi.waitFor(() => expect(budget.inUse).toBe(0));
  });

  it("small uploads share the room; one that waits too long is a 503 with Retry-After", async () => {
    const first = slowUpload(200 * KB);
    await vi.waitFor(() => expect(budget.inUse).toBeGreaterThan(200 * KB));
    // 60 KB still fits beside it.
    expect((await send(60 * KB)).status).toBe(201);
    const refused = await send(200 * KB);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.json()).toMatchObject({ error: "ERR_SERVICE_UNAVAILABLE" });
    slowUpload.finish.shift()?.();
    expect(await first.done).toBe(201);
    await vi.waitFor(() => expect(budget.inUse).toBe(0));
    expect(budget.waiting).toBe(0);
  });

  it("a client that goes away gives its room back", async () => {
    const body = multipart([{ name: "medias", value: pdf(200 * KB), filename: "gone.pdf", type: "application/pdf" }]);
    const req = httpRequest(`${base}/api/messages/${ticketId}`, {
      method: "POST",
      headers: { ...admin.auth, ...body.headers, "content-length": String(body.payload.length) },
    });
    req.on("error", () => {});
    req.write(body.payload.subarray(0, 1000));
    await vi.waitFor(() => expect(budget.inUse).toBeGreaterThan(200 * KB));
    req.destroy();
    await vi.waitFor(() => expect(budget.inUse).toBe(0));
  });
});
