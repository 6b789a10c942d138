import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, listTickets, makeSimulatorConnection, ticketMessages } from "../../test/conversation.js";
import { makeAdmin, type TestUser } from "../../test/factories.js";
import { createTestApp, type TestApp } from "../../test/harness.js";
import { messages } from "../db/schema.js";

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeAdmin(t);
});
afterAll(() => t.close());

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

describe("media download failures", () => {
  it("keeps the message with a retryable error, then recovers the media from the provider", async () => {
    const connection = await makeSimulatorConnection(t, admin);
    const from = customerNumber();
    // The phone has the file (as WhatsApp's servers would) under this wid...
    const original = await customerWrites(t, admin, connection.id, {
      from,
      media: { mimetype: "image/png", filename: "photo.png", dataBase64: PNG },
    });
    // ...and a later delivery of it fails to download the first time.
    await t.pipeline.onMessage(connection.id, {
      wid: "RETRY-ME-1",
      chat: from,
      isGroup: false,
      sender: { number: from },
      fromMe: false,
      timestamp: new Date(),
      type: "image",
      body: "",
      media: { mimetype: "image/png", filename: "photo.png", download: () => Promise.reject(new Error("media expired")) },
      raw: { simulator: { wid: original } },
    });
    await t.pipeline.idle();
    const ticket = (await listTickets(t, admin, { showAll: "true" })).tickets.find((x) => x.contact.number === from)!;
    const stored = (await ticketMessages(t, admin, ticket.id)).messages.at(-1)!;
    expect(stored).toMatchObject({
      mediaType: "image",
      mediaUrl: null,
      mediaError: "ERR_WAPP_DOWNLOAD_MEDIA",
      mediaName: "photo.png",
    });

    expect(await t.mediaRetry.runOnce()).toBe(0);
    await t.database.db.update(messages).set({ updatedAt: sql`now() - interval '10 minutes'` }).where(eq(messages.id, stored.id));
    expect(await t.mediaRetry.runOnce()).toBe(1);
    const recovered = (await ticketMessages(t, admin, ticket.id)).messages.at(-1)!;
    expect(recovered).toMatchObject({ mediaError: null, mediaUrl: `/api/messages/${stored.id}/media` });
    const file = await t.app.inject({ method: "GET", url: recovered.mediaUrl!, headers: admin.auth });
    expect(file.rawPayload.equals(Buffer.from(PNG, "base64"))).toBe(true);
  });
});

describe("media retry over the size cap", () => {
  let small: TestApp;
  let smallAdmin: TestUser;
  const CAP = 32;
  beforeAll(async () => {
    small = await createTestApp({ config: { mediaMaxBytes: CAP } });
    smallAdmin = await makeAdmin(small);
  });
  afterAll(() => small.close());

  it("a file that turns out larger than the cap is streamed, stopped, marked too large, and never retried again", async () => {
    expect(Buffer.from(PNG, "base64").length).toBeGreaterThan(CAP);
    const connection = await makeSimulatorConnection(small, smallAdmin);
    const from = customerNumber();
    const original = await customerWrites(small, smallAdmin, connection.id, {
      from,
      media: { mimetype: "image/png", filename: "photo.png", dataBase64: PNG },
    });
    await small.pipeline.onMessage(connection.id, {
      wid: "RETRY-TOO-BIG",
      chat: from,
      isGroup: false,
      sender: { number: from },
      fromMe: false,
      timestamp: new Date(),
      type: "image",
      body: "",
      media: { mimetype: "image/png", filename: "photo.png", download: () => Promise.reject(new Error("media expired")) },
      raw: { simulator: { wid: original } },
    });
    await small.pipeline.idle();
    const ticket = (await listTickets(small, smallAdmin, { showAll: "true" })).tickets.find((x) => x.contact.number === from)!;
    const stored = (await ticketMessages(small, smallAdmin, ticket.id)).messages.at(-1)!;
    expect(stored.mediaError).toBe("ERR_WAPP_DOWNLOAD_MEDIA");

    const due = async () =>
      small.database.db.update(messages).set({ updatedAt: sql`now() - interval '10 minutes'` }).where(eq(messages.id, stored.id));
    await due();
    expect(await small.mediaRetry.runOnce()).toBe(0);
    const marked = (await ticketMessages(small, smallAdmin, ticket.id)).messages.at(-1)!;
    expect(marked).toMatchObject({ mediaError: "ERR_MEDIA_TOO_LARGE", mediaUrl: null });

    // Too large stays too large: the next round leaves the row alone.
    await due();
    const [before] = await small.database.db.select().from(messages).where(eq(messages.id, stored.id));
    await small.mediaRetry.runOnce();
    const [after] = await small.database.db.select().from(messages).where(eq(messages.id, stored.id));
    expect(after.updatedAt).toEqual(before.updatedAt);
    expect(after.mediaPath).toBeNull();
  });
});
