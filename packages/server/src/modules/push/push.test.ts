import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Message, Ticket } from "@zapdesk/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerNumber, customerWrites, eventually, makeSimulatorConnection } from "../../../test/conversation.js";
import { makeAdmin, makeQueue, makeUser, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { startFakePushService } from "../../../test/push-fake.js";
import { pushSubscriptions } from "../../db/schema.js";
import { createPushService } from "./push.service.js";
import { createPushSender } from "./push-sender.js";
import { generateVapidKeys } from "./vapid.js";

let t: TestApp;
let fake: Awaited<ReturnType<typeof startFakePushService>>;
let admin: TestUser;
let sales: TestUser;
let support: TestUser;
let salesQueue: number;
let supportQueue: number;

beforeAll(async () => {
  fake = await startFakePushService();
  t = await createTestApp({ push: { allowInsecureEndpoints: true, retryDelaysMs: [0, 0] } });
  salesQueue = (await makeQueue(t, { name: `Sales ${customerNumber()}` })).id;
  supportQueue = (await makeQueue(t, { name: `Support ${customerNumber()}` })).id;
  admin = await makeAdmin(t);
  sales = await makeUser(t, { queueIds: [salesQueue] });
  support = await makeUser(t, { queueIds: [supportQueue] });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

type Method = "GET" | "POST" | "PUT" | "DELETE";
const call = (method: Method, url: string, who?: TestUser, payload?: object) =>
  t.app.inject({ method, url, headers: who?.auth, payload });

async function subscribe(who: TestUser, name: string) {
  const browser = fake.browser(name);
  const res = await call("POST", "/api/push/subscriptions", who, browser.subscription);
  expect(res.statusCode, res.body).toBe(200);
  return browser;
}

let nextId = 1000;
function fakeEvent(ticket: Partial<Ticket>, message: Partial<Message> = {}): [Message, Ticket] {
  const id = nextId++;
  return [
    {
      id,
      ticketId: id,
      body: "Olá, preciso de ajuda com meu pedido",
      fromMe: false,
      read: false,
      mediaType: "chat",
      mediaName: null,
      ...message,
    } as Message,
    { id, userId: null, queueId: null, isGroup: false, contact: { name: "Maria Silva" }, ...ticket } as Ticket,
  ];
}

describe("the VAPID key", () => {
  it("is generated into DATA_DIR on first start and served to anyone", async () => {
    const res = await call("GET", "/api/push/key");
    expect(res.statusCode).toBe(200);
    const { publicKey } = res.json() as { publicKey: string };
    expect(publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(Buffer.from(publicKey, "base64url")[0]).toBe(4); // an uncompressed P-256 point
    const file = join(t.config.dataDir, ".vapid.json");
    expect(existsSync(file)).toBe(true);
    expect(JSON.parse(readFileSync(file, "utf8")).publicKey).toBe(publicKey);
  });
});

describe("push subscriptions", () => {
  it("need a session", async () => {
    const browser = fake.browser("anon");
    expect((await call("POST", "/api/push/subscriptions", undefined, browser.subscription)).statusCode).toBe(401);
    expect((await call("DELETE", "/api/push/subscriptions", undefined, { endpoint: browser.endpoint })).statusCode).toBe(401);
    expect((await call("GET", "/api/me/notification-preferences")).statusCode).toBe(401);
  });

  it("refuse a malformed subscription and an endpoint that is not a public https address", async () => {
    const { subscription } = fake.browser("bad");
    for (const payload of [
      {},
      { ...subscription, endpoint: "not a url" },
      { ...subscription, keys: { p256dh: "short", auth: subscription.keys.auth } },
      { ...subscription, keys: { ...subscription.keys, auth: "***" } },
    ]) {
      const res = await call("POST", "/api/push/subscriptions", sales, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
    }
    for (const endpoint of [
      "http://push.example.com/x",
      "https://127.0.0.1/x",
      "https://10.1.2.3/x",
      "https://169.254.169.254/latest",
      "https://[::1]/x",
      "https://localhost/x",
      "https://push.internal/x",
      "http://127.0.0.2/x",
    ]) {
      const res = await call("POST", "/api/push/subscriptions", sales, { ...subscription, endpoint });
      expect(res.statusCode, endpoint).toBe(400);
      expect(res.json().error, endpoint).toBe("ERR_PUSH_ENDPOINT_NOT_ALLOWED");
    }
  });

  it("are upserted by endpoint, listed per user and deleted by endpoint", async () => {
    const browser = fake.browser("crud");
    const first = (await call("POST", "/api/push/subscriptions", sales, browser.subscription)).json();
    const again = (await call("POST", "/api/push/subscriptions", sales, browser.subscription)).json();
    expect(again.id).toBe(first.id);
    // The same browser signed in as someone else: the subscription changes hands.
    const taken = (await call("POST", "/api/push/subscriptions", support, browser.subscription)).json();
    expect(taken.id).toBe(first.id);
    expect((await call("GET", "/api/push/subscriptions", sales)).json().subscriptions).toEqual([]);
    expect((await call("GET", "/api/push/subscriptions", support)).json().subscriptions).toEqual([
      { id: first.id, endpoint: browser.endpoint },
    ]);
    // Nobody deletes another user's subscription.
    expect((await call("DELETE", "/api/push/subscriptions", sales, { endpoint: browser.endpoint })).statusCode).toBe(404);
    expect((await call("DELETE", "/api/push/subscriptions", support, { endpoint: browser.endpoint })).statusCode).toBe(200);
    expect((await call("DELETE", "/api/push/subscriptions", support, { endpoint: browser.endpoint })).statusCode).toBe(404);
  });
});

describe("notification preferences", () => {
  it("default to everything on, change one at a time and refuse unknown fields", async () => {
    const user = await makeUser(t);
    expect((await call("GET", "/api/me/notification-preferences", user)).json()).toEqual({
      sound: true,
      desktop: true,
      push: true,
    });
    const res = await call("PUT", "/api/me/notification-preferences", user, { sound: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sound: false, desktop: true, push: true });
    expect((await call("PUT", "/api/me/notification-preferences", user, { push: false })).json()).toEqual({
      sound: false,
      desktop: true,
      push: false,
    });
    expect((await call("GET", "/api/me/notification-preferences", user)).json()).toEqual({
      sound: false,
      desktop: true,
      push: false,
    });
    for (const payload of [{ sound: "yes" }, { volume: 3 }]) {
      const bad = await call("PUT", "/api/me/notification-preferences", user, payload);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toBe("ERR_VALIDATION");
    }
  });
});

describe("the push fan-out", () => {
  it("sends a real web push request: VAPID-signed, aes128gcm-encrypted, one topic per ticket", async () => {
    const user = await makeUser(t, { queueIds: [salesQueue] });
    const browser = await subscribe(user, "real");
    const { publicKey } = (await call("GET", "/api/push/key")).json();
    const [message, ticket] = fakeEvent({ queueId: salesQueue }, { body: `${"long ".repeat(60)}end` });
    t.services.push.messageCreated(message, ticket);
    await t.services.push.idle();
    const [push] = fake.to(browser.path);
    expect(push.headers.authorization).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${publicKey}$`));
    const jwt = JSON.parse(Buffer.from(String(push.headers.authorization).split(/[ .,]/)[2], "base64url").toString());
    expect(jwt.aud).toBe(new URL(browser.endpoint).origin);
    expect(push.headers["content-encoding"]).toBe("aes128gcm");
    expect(push.headers.ttl).toBe("86400");
    expect(push.headers.topic).toBe(`ticket-${ticket.id}`);
    const payload = browser.decrypt(push.body);
    expect(payload).toEqual({
      title: "Maria Silva",
      body: expect.stringMatching(/^long long .*…$/),
      url: `/tickets/${ticket.id}`,
      tag: `ticket-${ticket.id}`,
      ticketId: ticket.id,
    });
    expect(payload.body.length).toBeLessThanOrEqual(120);
  });

  it("tells only who may see the ticket: its queue's agents and admins while unassigned, then only the assignee", async () => {
    const phones = {
      admin: await subscribe(admin, "admin"),
      sales: await subscribe(sales, "sales"),
      support: await subscribe(support, "support"),
    };
    const count = () => Object.fromEntries(Object.entries(phones).map(([who, b]) => [who, fake.to(b.path).length]));
    const before = count();
    const delta = () => {
      const now = count();
      return Object.fromEntries(Object.keys(now).map((k) => [k, now[k] - before[k]]));
    };

    t.services.push.messageCreated(...fakeEvent({ queueId: salesQueue }));
    await t.services.push.idle();
    expect(delta()).toEqual({ admin: 1, sales: 1, support: 0 });

    // Assigned to the support agent (who is not in its queue): only they hear of it.
    t.services.push.messageCreated(...fakeEvent({ queueId: salesQueue, userId: support.id }));
    await t.services.push.idle();
    expect(delta()).toEqual({ admin: 1, sales: 1, support: 1 });

    // Not told: the agent's own messages, groups, messages already read.
    t.services.push.messageCreated(...fakeEvent({ queueId: salesQueue }, { fromMe: true }));
    t.services.push.messageCreated(...fakeEvent({ queueId: salesQueue, isGroup: true }));
    t.services.push.messageCreated(...fakeEvent({ queueId: salesQueue }, { read: true }));
    await t.services.push.idle();
    expect(delta()).toEqual({ admin: 1, sales: 1, support: 1 });

    // Push switched off in the preferences: nothing more for that user.
    await call("PUT", "/api/me/notification-preferences", admin, { push: false });
    t.services.push.messageCreated(...fakeEvent({ queueId: null }));
    await t.services.push.idle();
    expect(delta()).toEqual({ admin: 1, sales: 2, support: 2 });
    await call("PUT", "/api/me/notification-preferences", admin, { push: true });

    // Issue 13: a ticket still at the greeting menu is pushed to admins only, unless agents may see those.
    t.services.push.messageCreated(...fakeEvent({ queueId: null, choosingQueue: true }));
    await t.services.push.idle();
    expect(delta()).toEqual({ admin: 2, sales: 2, support: 2 });
    await call("PUT", "/api/settings/showChoosingQueue", admin, { value: "enabled" });
    t.services.push.messageCreated(...fakeEvent({ queueId: null, choosingQueue: true }));
    await t.services.push.idle();
    await call("PUT", "/api/settings/showChoosingQueue", admin, { value: "disabled" });
    expect(delta()).toEqual({ admin: 3, sales: 3, support: 3 });
    // Issue 23 §4: a queue's bot is talking with the customer: admins only (they may take over).
    t.services.push.messageCreated(...fakeEvent({ queueId: salesQueue, botHeld: true }));
    await t.services.push.idle();
    expect(delta()).toEqual({ admin: 4, sales: 3, support: 3 });
    for (const [who, b] of Object.entries(phones)) {
      await call("DELETE", "/api/push/subscriptions", { admin, sales, support }[who], { endpoint: b.endpoint });
    }
  });

  it("forgets a subscription the push service says is gone, and retries a failing one a little", async () => {
    const user = await makeUser(t, { queueIds: [supportQueue] });
    const gone = await subscribe(user, "gone");
    const flaky = await subscribe(user, "flaky");
    fake.statusFor.set(gone.path, 410);
    fake.statusFor.set(flaky.path, 503);
    t.services.push.messageCreated(...fakeEvent({ queueId: supportQueue }));
    await t.services.push.idle();
    expect(fake.to(gone.path)).toHaveLength(1);
    expect(fake.to(flaky.path)).toHaveLength(3); // the first try and two retries
    const rows = await t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id));
    expect(rows.map((r) => [r.endpoint, r.failures])).toEqual([[flaky.endpoint, 1]]);
    // A later success resets the count.
    fake.statusFor.delete(flaky.path);
    t.services.push.messageCreated(...fakeEvent({ queueId: supportQueue }));
    await t.services.push.idle();
    const [row] = await t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id));
    expect(row.failures).toBe(0);
    expect(row.lastSuccessAt).not.toBeNull();
    await call("DELETE", "/api/push/subscriptions", user, { endpoint: flaky.endpoint });
  });

  it("reads who has push on once for a burst of messages, and still tells each of them", async () => {
    const user = await makeUser(t, { queueIds: [supportQueue] });
    const phone = await subscribe(user, "burst");
    let selects = 0;
    const counted = new Proxy(t.database.db, {
      get(target, property, receiver) {
        if (property === "select") selects++;
        return Reflect.get(target, property, receiver);
      },
    });
    const vapid = { ...generateVapidKeys(), subject: "mailto:push@zapdesk.test" };
    const push = createPushService({
      db: counted,
      logger: t.app.log,
      vapid,
      send: createPushSender(vapid, { allowInsecure: true }),
      allowInsecureEndpoints: true,
    });
    const before = fake.to(phone.path).length;
    // Twenty customer messages announced in the same tick, as one inbound batch announces them.
    for (let i = 0; i < 20; i++) push.messageCreated(...fakeEvent({ queueId: supportQueue }));
    await push.idle();
    expect(fake.to(phone.path).length - before).toBe(20);
    // One read of the subscriptions and one of their users' queues, where there were forty.
    expect(selects).toBe(2);
    // A message after the read is done reads again: a subscription made meanwhile is not missed.
    push.messageCreated(...fakeEvent({ queueId: supportQueue }));
    await push.idle();
    expect(selects).toBe(4);
    await call("DELETE", "/api/push/subscriptions", user, { endpoint: phone.endpoint });
  });

  it("runs from the inbound message path: a customer writing reaches the agents of the ticket's queue", async () => {
    const queue = (await makeQueue(t, { name: `Inbound ${customerNumber()}` })).id;
    const inQueue = await makeUser(t, { queueIds: [queue] });
    const outside = await makeUser(t, { queueIds: [supportQueue] });
    const mine = await subscribe(inQueue, "inbound-in");
    const theirs = await subscribe(outside, "inbound-out");
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue] });
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, name: "João Cliente", body: "Bom dia, meu pedido não chegou" });
    const push = await eventually(async () => {
      await t.services.push.idle();
      const [received] = fake.to(mine.path);
      expect(received).toBeDefined();
      return received;
    });
    const payload = mine.decrypt(push.body);
    expect(payload.title).toBe("João Cliente");
    expect(payload.body).toBe("Bom dia, meu pedido não chegou");
    expect(payload.url).toMatch(/^\/tickets\/\d+$/);
    expect(fake.to(theirs.path)).toHaveLength(0);
  });
});

describe("a mention in a private note", () => {
  it("is pushed to the mentioned colleague alone, opening the ticket at the note; the note itself is pushed to no one", async () => {
    const queue = (await makeQueue(t, { name: `Notes ${customerNumber()}` })).id;
    const author = await makeUser(t, { queueIds: [queue], name: "Ana Author" });
    const colleague = await makeUser(t, { queueIds: [queue], name: "Bruno Colleague" });
    const bystander = await makeUser(t, { queueIds: [queue] });
    const connection = await makeSimulatorConnection(t, admin, { queueIds: [queue] });
    const from = customerNumber();
    await customerWrites(t, admin, connection.id, { from, name: "Clara Cliente", body: "oi" });
    const ticket = await eventually(async () => {
      const res = await call("GET", "/api/tickets?status=pending&showAll=true", admin);
      const found = (res.json().tickets as Ticket[]).find((x) => x.contact.number === from);
      expect(found).toBeDefined();
      return found!;
    });
    await t.services.push.idle();
    const phones = { colleague: await subscribe(colleague, "mention-b"), bystander: await subscribe(bystander, "mention-c") };
    const accepted = await call("PUT", `/api/tickets/${ticket.id}`, author, { status: "open", userId: author.id });
    expect(accepted.statusCode, accepted.body).toBe(200);

    const res = await call("POST", `/api/messages/${ticket.id}`, author, {
      body: "Bruno, veja este pedido",
      isNote: true,
      mentions: [colleague.id],
    });
    expect(res.statusCode, res.body).toBe(201);
    const note = res.json() as Message;
    await t.services.push.idle();
    const [push] = fake.to(phones.colleague.path);
    expect(phones.colleague.decrypt(push.body)).toEqual({
      title: "📝 Ana Author · Clara Cliente",
      body: "Bruno, veja este pedido",
      url: `/tickets/${ticket.id}?message=${note.id}`,
      tag: expect.stringMatching(/^mention-\d+$/),
      ticketId: ticket.id,
    });
    expect(fake.to(phones.colleague.path)).toHaveLength(1);
    expect(fake.to(phones.bystander.path)).toHaveLength(0);
  });
});

describe("the API document", () => {
  it("describes the push and preference routes", async () => {
    const doc = (await call("GET", "/api/docs/json")).json() as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths["/api/push/key"])).toEqual(["get"]);
    expect(Object.keys(doc.paths["/api/push/subscriptions"]).sort()).toEqual(["delete", "get", "post"]);
    expect(Object.keys(doc.paths["/api/me/notification-preferences"]).sort()).toEqual(["get", "put"]);
  });
});
