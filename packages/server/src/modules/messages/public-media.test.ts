import { MEDIA_STATE } from "@zapdesk/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, eventually, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../../test/factories.js";
import { createTestApp, expectNoLeak, manualClock, type TestApp } from "../../../test/harness.js";
import { PNG } from "../../../test/typebot-fake/server.js";
import { messages } from "../../db/schema.js";
import { MEDIA_LINK_TTL_SECONDS } from "../../media/media-links.js";

// Signed, expiring links to one message's media, fetched without a session (what the queues' bots get).
const PUBLIC_URL = "https://zapdesk.example";
const clock = manualClock();
let t: TestApp;
let admin: TestUser;
let whatsappId: number;

beforeAll(async () => {
  t = await createTestApp({ clock, config: { publicUrl: `${PUBLIC_URL}/` } });
  admin = await makeAdmin(t);
  whatsappId = (await makeSimulatorConnection(t, admin)).id;
});
afterAll(() => t.close());

/** A customer's message, once its file (if any) is stored: its row. */
async function customerSends(input: { body?: string; media?: { mimetype: string; filename: string; data: Buffer } }) {
  const from = customerNumber();
  const wid = await customerWrites(t, admin, whatsappId, {
    from,
    body: input.body,
    ...(input.media
      ? {
          media: {
            mimetype: input.media.mimetype,
            filename: input.media.filename,
            dataBase64: input.media.data.toString("base64"),
          },
        }
      : {}),
  });
  return eventually(async () => {
    const [row] = await t.database.db.select().from(messages).where(eq(messages.wid, wid));
    expect(row).toBeDefined();
    if (input.media) expect(row.mediaPath).toBeTruthy();
    return { ...row, from };
  });
}

const image = () => customerSends({ body: "", media: { mimetype: "image/png", filename: "foto.png", data: PNG } });
/** The link's path, fetched through the real HTTP layer with no session of any kind. */
const fetchLink = (link: string) => t.app.inject({ method: "GET", url: new URL(link).pathname });
const linkOf = (messageId: number) => {
  const link = t.mediaLinks.urlFor(messageId);
  expect(link).not.toBeNull();
  return link!;
};
function expectError(res: Awaited<ReturnType<typeof fetchLink>>, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().error).toBe(code);
  expectNoLeak(res.body);
}

describe("a signed media link", () => {
  it("serves exactly that message's file without a session, with the media route's safe headers", async () => {
    const message = await image();
    const link = linkOf(message.id);
    expect(link.startsWith(`${PUBLIC_URL}/api/public/media/${message.id}.`)).toBe(true);
    const res = await fetchLink(link);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.equals(PNG)).toBe(true);
    expect(res.headers["content-type"]).toBe("image/png");
    expect(res.headers["content-length"]).toBe(String(PNG.length));
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-disposition"]).toMatch(/^inline; filename="foto.png"/);
    expect(res.headers["cache-control"]).toBe("no-store");
    // The authenticated route answers the same file, through the same helper.
    const authed = await t.app.inject({ method: "GET", url: `/api/messages/${message.id}/media`, headers: admin.auth });
    expect(authed.rawPayload.equals(PNG)).toBe(true);
    expect(authed.headers["cache-control"]).toBe("private, max-age=3600");
  });

  it("serves a type that is not safe inline as an attachment", async () => {
    const data = Buffer.from("<html><script>alert(1)</script></html>");
    const message = await customerSends({ media: { mimetype: "text/html", filename: "page.html", data } });
    const res = await fetchLink(linkOf(message.id));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.equals(data)).toBe(true);
    expect(res.headers["content-type"]).toBe("application/octet-stream");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; /);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("refuses a tampered or forged token, and another message's id under a genuine signature", async () => {
    const [mine, other] = [await image(), await image()];
    const link = linkOf(mine.id);
    const token = new URL(link).pathname.split("/").pop()!;
    const [id, expires, signature] = token.split(".");
    const flip = (c: string) => (c === "A" ? "B" : "A");
    const forged = [
      `${id}.${expires}.${signature.slice(0, 10)}${flip(signature[10])}${signature.slice(11)}`,
      `${id}.${expires}.${signature.slice(0, -1)}${flip(signature.at(-1)!)}`,
      `${other.id}.${expires}.${signature}`,
      `${id}.${Number(expires) + 3600}.${signature}`,
      `${id}.${expires}.${"A".repeat(43)}`,
      "not-a-token",
      `${id}.${expires}`,
    ];
    for (const bad of forged)
      expectError(await fetchLink(`${PUBLIC_URL}/api/public/media/${bad}`), 403, "ERR_MEDIA_LINK_INVALID");
    // The genuine link still works, and the other message has links of its own.
    expect((await fetchLink(link)).statusCode).toBe(200);
    expect((await fetchLink(linkOf(other.id))).statusCode).toBe(200);
    // Nothing answers beside the one route: no listing, no other shape.
    expect((await t.app.inject({ method: "GET", url: "/api/public/media" })).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: `/api/public/media/${token}/x` })).statusCode).toBe(404);
    const long = await t.app.inject({ method: "GET", url: `/api/public/media/${"1".repeat(99)}` });
    expect(long.json().error).toBe("ERR_MEDIA_LINK_INVALID");
  });

  it("is gone once the message is deleted by the customer, its file removed by retention, or its contact erased", async () => {
    const revoked = await image();
    const revokedLink = linkOf(revoked.id);
    const res = await t.app.inject({
      method: "POST",
      url: `/api/simulator/${whatsappId}/revoke`,
      headers: admin.auth,
      payload: { id: revoked.wid },
    });
    expect(res.statusCode, res.body).toBe(200);
    await eventually(async () => expectError(await fetchLink(revokedLink), 410, "ERR_MEDIA_GONE"));

    // What a retention policy that removes media leaves on the message (retention.repo.ts).
    const purged = await image();
    const purgedLink = linkOf(purged.id);
    await t.database.db
      .update(messages)
      .set({ mediaPath: null, mediaError: MEDIA_STATE.removedByRetention })
      .where(eq(messages.id, purged.id));
    expectError(await fetchLink(purgedLink), 410, "ERR_MEDIA_GONE");

    const erased = await image();
    const erasedLink = linkOf(erased.id);
    const erase = await t.app.inject({
      method: "POST",
      url: `/api/contacts/${erased.contactId}/data/erase`,
      headers: admin.auth,
      payload: { confirm: erased.from },
    });
    expect(erase.statusCode, erase.body).toBe(200);
    expectError(await fetchLink(erasedLink), 410, "ERR_MEDIA_GONE");
  });

  it("answers 404 for a message without a file", async () => {
    const text = await customerSends({ body: "só texto" });
    expectError(await fetchLink(linkOf(text.id)), 404, "ERR_NO_MESSAGE_FOUND");
  });

  it("is in the API docs as a route without a session", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json() as {
      paths: Record<string, { get?: { security?: unknown[]; parameters?: { name: string }[] } }>;
    };
    const route = doc.paths["/api/public/media/{token}"]?.get;
    expect(route?.security).toEqual([]);
    expect(route?.parameters?.map((p) => p.name)).toEqual(["token"]);
  });

  // Last: it moves the clock past the links' lifetime (and the admin's session with it).
  it("expires after its lifetime", async () => {
    const message = await image();
    const link = linkOf(message.id);
    clock.advance((MEDIA_LINK_TTL_SECONDS - 1) * 1000);
    expect((await fetchLink(link)).statusCode).toBe(200);
    clock.advance(1000);
    expectError(await fetchLink(link), 410, "ERR_MEDIA_LINK_EXPIRED");
    // A link given now works again: the file is still there.
    expect((await fetchLink(linkOf(message.id))).statusCode).toBe(200);
  });
});

describe("without PUBLIC_URL", () => {
  it("gives no link", async () => {
    const bare = await createTestApp({ start: false });
    try {
      expect(bare.mediaLinks.enabled).toBe(false);
      expect(bare.mediaLinks.urlFor(1)).toBeNull();
    } finally {
      await bare.close();
    }
  });
});
