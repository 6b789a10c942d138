import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAdmin, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, expectNoLeak, type TestApp } from "../../../test/harness.js";
import { webhooks as webhooksTable } from "../../db/schema.js";
import { postJson } from "./http-post.js";
import { isBlockedAddress } from "./target-guard.js";

let t: TestApp;
let admin: TestUser;
let agent: TestUser;

beforeAll(async () => {
  t = await createTestApp({ start: false });
  admin = await makeAdmin(t);
  agent = await makeUser(t);
});
afterAll(() => t.close());

type Method = "GET" | "POST" | "PUT" | "DELETE";
const call = (method: Method, url: string, who: TestUser, payload?: object) =>
  t.app.inject({ method, url, headers: who.auth, payload });
const allowPrivate = async (value: "enabled" | "disabled") => {
  const res = await call("PUT", "/api/settings/webhookAllowPrivate", admin, { value });
  expect(res.statusCode, res.body).toBe(200);
};

describe("outbound webhooks: administration", () => {
  it("lets an admin create, read, list, update and delete a webhook; the secret is shown only at creation", async () => {
    const created = await call("POST", "/api/webhooks", admin, {
      url: "http://93.184.216.34/hooks/zapdesk",
      events: ["ticket.updated", "message.created", "message.created"],
    });
    expect(created.statusCode, created.body).toBe(200);
    const body = created.json();
    expect(body).toMatchObject({
      id: expect.any(Number),
      url: "http://93.184.216.34/hooks/zapdesk",
      events: ["message.created", "ticket.updated"],
      enabled: true,
      lastDelivery: null,
    });
    expect(body.secret).toMatch(/^whsec_[\w-]{32}$/);
    expect(body.secretHint).toBe(body.secret.slice(-4));

    // Stored sealed, never in clear.
    const [row] = await t.database.db.select().from(webhooksTable).where(eq(webhooksTable.id, body.id));
    expect(row.secret).not.toContain(body.secret);
    expect(row.secret.startsWith("v1:")).toBe(true);

    const read = await call("GET", `/api/webhooks/${body.id}`, admin);
    expect(read.statusCode).toBe(200);
    expect(read.body).not.toContain(body.secret);
    expect(read.json()).not.toHaveProperty("secret");
    const list = await call("GET", "/api/webhooks", admin);
    expect(list.body).not.toContain(body.secret);
    expect(list.json().webhooks.map((w: { id: number }) => w.id)).toContain(body.id);

    const updated = await call("PUT", `/api/webhooks/${body.id}`, admin, { events: ["contact.created"], enabled: false });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ events: ["contact.created"], enabled: false, url: body.url });
    expect(updated.body).not.toContain(body.secret);

    const rotated = await call("POST", `/api/webhooks/${body.id}/rotate-secret`, admin);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().secret).toMatch(/^whsec_/);
    expect(rotated.json().secret).not.toBe(body.secret);
    expect((await call("GET", `/api/webhooks/${body.id}`, admin)).json().secretHint).toBe(rotated.json().secret.slice(-4));

    expect((await call("DELETE", `/api/webhooks/${body.id}`, admin)).statusCode).toBe(200);
    const gone = await call("GET", `/api/webhooks/${body.id}`, admin);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe("ERR_NO_WEBHOOK_FOUND");
  });

  it("refuses every route to a user who is not an admin", async () => {
    const created = (
      await call("POST", "/api/webhooks", admin, { url: "https://93.184.216.34/x", events: ["contact.created"] })
    ).json();
    const attempts: [Method, string, object?][] = [
      ["GET", "/api/webhooks"],
      ["POST", "/api/webhooks", { url: "https://93.184.216.34/y", events: ["contact.created"] }],
      ["GET", `/api/webhooks/${created.id}`],
      ["PUT", `/api/webhooks/${created.id}`, { enabled: false }],
      ["DELETE", `/api/webhooks/${created.id}`],
      ["POST", `/api/webhooks/${created.id}/rotate-secret`],
      ["GET", `/api/webhooks/${created.id}/deliveries`],
      ["POST", "/api/webhooks/deliveries/1/resend"],
    ];
    for (const [method, url, payload] of attempts) {
      const res = await call(method, url, agent, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error).toBe("ERR_NO_PERMISSION");
    }
    const anonymous = await t.app.inject({ method: "GET", url: "/api/webhooks" });
    expect(anonymous.statusCode).toBe(401);
  });

  it("answers bad input with 400 and field paths, never 500", async () => {
    const bad: object[] = [
      {},
      { url: "ftp://93.184.216.34/x", events: ["contact.created"] },
      { url: "javascript:alert(1)", events: ["contact.created"] },
      { url: "http://user:pw@93.184.216.34/", events: ["contact.created"] },
      { url: "http://93.184.216.34/a\u0000b", events: ["contact.created"] },
      { url: "https://93.184.216.34/x", events: [] },
      { url: "https://93.184.216.34/x", events: ["ticket.deleted"] },
      { url: "https://93.184.216.34/x", events: ["contact.created"], secret: "mine" },
      { url: `https://93.184.216.34/${"a".repeat(2100)}`, events: ["contact.created"] },
    ];
    for (const payload of bad) {
      const res = await call("POST", "/api/webhooks", admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
      expectNoLeak(res.body);
    }
    expect((await call("GET", "/api/webhooks/abc", admin)).statusCode).toBe(400);
    expect((await call("GET", "/api/webhooks/999999", admin)).json().error).toBe("ERR_NO_WEBHOOK_FOUND");
    expect((await call("GET", "/api/webhooks/999999/deliveries", admin)).statusCode).toBe(404);
    expect((await call("GET", "/api/webhooks/1/deliveries?status=nope", admin)).statusCode).toBe(400);
    const resend = await call("POST", "/api/webhooks/deliveries/999999/resend", admin);
    expect(resend.json().error).toBe("ERR_NO_WEBHOOK_DELIVERY_FOUND");
  });

  it("refuses private, loopback and metadata targets at registration unless the admin setting allows them", async () => {
    await allowPrivate("disabled");
    const refused = [
      "http://127.0.0.1:8080/hook",
      "http://10.1.2.3/hook",
      "http://192.168.0.10/hook",
      "http://172.16.5.5/hook",
      "http://100.64.0.1/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://0.0.0.0/hook",
      "http://[::1]:8080/hook",
      "http://[::ffff:127.0.0.1]/hook",
      "http://[::ffff:a9fe:a9fe]/hook",
      "http://[fd00::1]/hook",
      "http://[fe80::1]/hook",
      "http://localhost:3000/hook",
    ];
    for (const url of refused) {
      const res = await call("POST", "/api/webhooks", admin, { url, events: ["contact.created"] });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error, url).toBe("ERR_WEBHOOK_PRIVATE_TARGET");
    }
    const unresolvable = await call("POST", "/api/webhooks", admin, {
      url: "http://no-such-host.invalid/hook",
      events: ["contact.created"],
    });
    expect(unresolvable.statusCode).toBe(400);
    expect(unresolvable.json().error).toBe("ERR_WEBHOOK_UNRESOLVABLE");

    // Moving an existing webhook to a private address is refused the same way.
    const ok = (await call("POST", "/api/webhooks", admin, { url: "http://93.184.216.34/", events: ["contact.created"] })).json();
    const moved = await call("PUT", `/api/webhooks/${ok.id}`, admin, { url: "http://127.0.0.1/" });
    expect(moved.json().error).toBe("ERR_WEBHOOK_PRIVATE_TARGET");

    await allowPrivate("enabled");
    const allowed = await call("POST", "/api/webhooks", admin, {
      url: "http://localhost:3000/hook",
      events: ["contact.created"],
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
    await allowPrivate("disabled");
  });

  it("the setting accepts only enabled or disabled and defaults to disabled", async () => {
    const settings = (await call("GET", "/api/settings", admin)).json() as { key: string; value: string }[];
    expect(settings.find((s) => s.key === "webhookAllowPrivate")?.value).toBe("disabled");
    const bad = await call("PUT", "/api/settings/webhookAllowPrivate", admin, { value: "yes" });
    expect(bad.statusCode).toBe(400);
    expect((await call("PUT", "/api/settings/webhookAllowPrivate", agent, { value: "enabled" })).statusCode).toBe(403);
  });

  it("is described in the OpenAPI document", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    for (const path of [
      "/api/webhooks",
      "/api/webhooks/{id}",
      "/api/webhooks/{id}/rotate-secret",
      "/api/webhooks/{id}/deliveries",
      "/api/webhooks/deliveries/{id}/resend",
    ])
      expect(doc.paths[path], path).toBeDefined();
    expect(doc.paths["/api/webhooks"].post).toBeDefined();
  });
});

describe("outbound webhooks: address guard", () => {
  it("classifies addresses", () => {
    for (const ip of [
      "127.0.0.1",
      "10.0.0.1",
      "169.254.169.254",
      "100.100.100.100",
      "224.0.0.1",
      "::1",
      "::",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "fd12:3456::1",
      "fe80::abcd",
      "ff02::1",
    ])
      expect(isBlockedAddress(ip), ip).toBe(true);
    for (const ip of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
      expect(isBlockedAddress(ip), ip).toBe(false);
  });

  it("refuses private targets at delivery time, literal or resolved", async () => {
    for (const url of ["http://127.0.0.1:9/x", "http://[::1]:9/x", "http://[::ffff:127.0.0.1]:9/x", "http://localhost:9/x"]) {
      const outcome = await postJson(url, "{}", {}, { allowPrivate: false, timeoutMs: 2000 });
      expect(outcome.ok, url).toBe(false);
      expect(outcome.error, url).toContain("ERR_WEBHOOK_PRIVATE_TARGET");
      expect(outcome.status).toBeNull();
    }
  });
});
