import { readdirSync, statSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { multipart } from "../../../test/multipart.js";
import { listen } from "../../../test/sockets.js";
import { createUploadBudget } from "../../http/upload-budget.js";
import { UPLOAD_LIMITS } from "./uploads.js";

const KB = 1024;
const MB = 1024 * KB;
const pdf = (size: number) => Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(size, 32)]);

// A budget far smaller than the uploads below: had the API route reserved room, it would show here.
const budget = createUploadBudget({ maxBytes: 64 * KB, maxWaitMs: 500 });
let t: TestApp;
let base: string;
let token: string;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ uploadBudget: budget });
  base = await listen(t);
  admin = await makeAdmin(t);
  await makeSimulatorConnection(t, admin, { isDefault: true });
  const settings = await t.app.inject({ method: "GET", url: "/api/settings", headers: admin.auth });
  token = (settings.json() as { key: string; value: string }[]).find((s) => s.key === "userApiToken")!.value;
});
afterAll(() => t.close());

/** Every file under the media folder, however deep, with its size. */
function storedFiles(): { path: string; size: number }[] {
  const root = join(t.config.dataDir, "media");
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const path = join(entry.parentPath, entry.name);
        return { path, size: statSync(path).size };
      });
  } catch {
    return [];
  }
}

const number = () => `55119${String(Date.now()).slice(-8)}`;

function apiSend(parts: Parameters<typeof multipart>[0]) {
  const body = multipart(parts);
  return t.app.inject({
    method: "POST",
    url: "/api/messages/send",
    headers: { authorization: `Bearer ${token}`, ...body.headers },
    payload: body.payload,
  });
}

describe("POST /api/messages/send with files (issue 22 §6)", () => {
  it("sends a file: stored once, the message carries it, and it downloads whole", async () => {
    const before = storedFiles().length;
    const file = pdf(300 * KB);
    const res = await apiSend([
      { name: "number", value: number() },
      { name: "body", value: "your invoice" },
      { name: "medias", value: file, filename: "invoice.pdf", type: "application/pdf" },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const { message } = res.json();
    expect(message).toMatchObject({ body: "your invoice", mediaType: "document" });
    expect(storedFiles().length).toBe(before + 1);
    expect(storedFiles().some((f) => f.size === file.length)).toBe(true);
    const media = await t.app.inject({ method: "GET", url: `/api/messages/${message.id}/media`, headers: admin.auth });
    expect(media.statusCode).toBe(200);
    expect(media.rawPayload.equals(file)).toBe(true);
    expect(budget.inUse).toBe(0);
  });

  it("streams the file to storage while it arrives, without taking upload budget, and removes it when the client goes away", async () => {
    const before = storedFiles();
    const body = multipart([
      { name: "number", value: number() },
      { name: "medias", value: pdf(4 * MB), filename: "big.pdf", type: "application/pdf" },
    ]);
    const req = httpRequest(`${base}/api/messages/send`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, ...body.headers, "content-length": String(body.payload.length) },
    });
    req.on("error", () => {});
    // The first 2 MiB of a 4 MiB file, and then nothing: the request is far from complete.
    req.write(body.payload.subarray(0, 2 * MB));
    // Its bytes are already on disk: a new file of more than a MiB while the request is still open.
    await vi.waitFor(
      () => {
        const growing = storedFiles().filter((f) => !before.some((b) => b.path === f.path));
        expect(growing.length).toBe(1);
        expect(growing[0].size).toBeGreaterThan(MB);
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(budget.inUse).toBe(0);
    expect(budget.waiting).toBe(0);
    req.destroy();
    // The partial file does not outlive the request.
    await vi.waitFor(() => expect(storedFiles()).toEqual(before), { timeout: 15_000, interval: 50 });
  });

  it("refuses a file over the limit mid-stream with 413 ERR_PAYLOAD_TOO_LARGE and keeps nothing, the files before it included", async () => {
    const before = storedFiles();
    const res = await apiSend([
      { name: "number", value: number() },
      { name: "medias", value: pdf(100 * KB), filename: "small.pdf", type: "application/pdf" },
      { name: "medias", value: pdf(UPLOAD_LIMITS.fileSize + 1), filename: "huge.pdf", type: "application/pdf" },
    ]);
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe("ERR_PAYLOAD_TOO_LARGE");
    expect(storedFiles()).toEqual(before);
  });

  it("keeps nothing when the fields are refused after the files were stored, or a file is empty", async () => {
    const before = storedFiles();
    const badNumber = await apiSend([
      { name: "medias", value: pdf(50 * KB), filename: "a.pdf", type: "application/pdf" },
      { name: "number", value: "not a number" },
    ]);
    expect(badNumber.statusCode).toBe(400);
    expect(badNumber.json().error).toBe("ERR_VALIDATION");
    const empty = await apiSend([
      { name: "number", value: number() },
      { name: "medias", value: Buffer.alloc(0), filename: "empty.pdf", type: "application/pdf" },
    ]);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details[0]).toMatchObject({ path: ["medias"], message: "Empty file" });
    const wrongField = await apiSend([
      { name: "number", value: number() },
      { name: "medias", value: pdf(50 * KB), filename: "a.pdf", type: "application/pdf" },
      { name: "avatar", value: pdf(50 * KB), filename: "b.pdf", type: "application/pdf" },
    ]);
    expect(wrongField.statusCode).toBe(400);
    expect(storedFiles()).toEqual(before);
  });
});
