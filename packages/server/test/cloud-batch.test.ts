import { asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inboundEvents, messages } from "../src/db/schema.js";
import { type CloudConnection, customerPhone, makeCloudConnection, startCloudApp } from "./cloud-rig.js";
import { eventually } from "./conversation.js";
import { makeAdmin } from "./factories.js";
import { payloads } from "./graph-fake/index.js";

describe("Cloud API webhook with several messages", () => {
  let app: Awaited<ReturnType<typeof startCloudApp>>;
  let cloud: CloudConnection;

  beforeAll(async () => {
    app = await startCloudApp();
    cloud = await makeCloudConnection(app, await makeAdmin(app.t));
  });
  afterAll(async () => app?.close());

  it("stores the messages of one delivery in one transaction, in order, and marks the delivery done after", async () => {
    const [a, b] = [customerPhone(), customerPhone()];
    const sent = Array.from({ length: 6 }, (_, i) => payloads.text({ from: i % 2 ? b : a, body: `part ${i}` }));
    const delivery = cloud.meta.message(sent[0], "Ana");
    const value = delivery.entry[0].changes[0].value as Record<string, unknown>;
    value.contacts = [
      { profile: { name: "Ana" }, wa_id: a },
      { profile: { name: "Bia" }, wa_id: b },
    ];
    value.messages = sent;
    const [answer] = await cloud.meta.deliver(delivery);
    expect(answer.status).toBe(200);

    const wids = sent.map((m) => m.id);
    const event = await eventually(async () => {
      const [row] = await app.t.database.db
        .select({ status: inboundEvents.status })
        .from(inboundEvents)
        .where(eq(inboundEvents.whatsappId, cloud.connection.id))
        .orderBy(sql`${inboundEvents.id} desc`)
        .limit(1);
      expect(row.status).toBe("done");
      return row;
    });
    expect(event.status).toBe("done");
    const rows = await app.t.database.db
      .select({ body: messages.body, tx: sql<string>`${messages}.xmin::text` })
      .from(messages)
      .where(inArray(messages.wid, wids))
      .orderBy(asc(messages.id));
    expect(rows.map((r) => r.body)).toEqual(sent.map((m) => (m.text as { body: string }).body));
    // One transaction for the delivery (one per message before batching).
    expect(new Set(rows.map((r) => r.tx)).size).toBe(1);
  });
});
