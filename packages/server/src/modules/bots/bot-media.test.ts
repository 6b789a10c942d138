import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BOT_WAIT,
  customerNumber,
  customerWrites,
  eventually,
  makeSimulatorConnection,
  phoneReceived,
  ticketRowOf,
} from "../../../test/conversation.js";
import { makeAdmin, makeQueue, type TestUser } from "../../../test/factories.js";
import { createTestApp, type TestApp } from "../../../test/harness.js";
import { PNG, type Step, startTypebotFake, type TypebotFake } from "../../../test/typebot-fake/server.js";
import { botSessions } from "../../db/schema.js";

// The customer's files reach a queue's bot as signed links (PUBLIC_URL): Typebot's file input and a
// text input with attachments read them, a webhook bot gets `mediaUrl`; without PUBLIC_URL, text only.
const PUBLIC_URL = "https://zapdesk.example";
let typebot: TypebotFake;
let receiver: Server;
let receiverUrl: string;
const received: { path: string; body: { data: { message: Record<string, unknown> } } }[] = [];

interface Rig {
  t: TestApp;
  admin: TestUser;
  logs: string[];
}
let linked: Rig;
let bare: Rig;

async function rig(config: { publicUrl?: string }): Promise<Rig> {
  const logs: string[] = [];
  const t = await createTestApp({
    botTimeoutMs: 1000,
    config: { ...config, logLevel: "warn" },
    logStream: { write: (line) => logs.push(line) },
  });
  const admin = await makeAdmin(t);
  // The fake Typebot and the webhook receiver are on 127.0.0.1.
  const allowed = await t.app.inject({
    method: "PUT",
    url: "/api/settings/webhookAllowPrivate",
    headers: admin.auth,
    payload: { value: "enabled" },
  });
  expect(allowed.statusCode).toBe(200);
  return { t, admin, logs };
}

beforeAll(async () => {
  typebot = await startTypebotFake();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      res.writeHead(200).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  [linked, bare] = await Promise.all([rig({ publicUrl: PUBLIC_URL }), rig({})]);
});
afterAll(async () => {
  await Promise.all([linked?.t.close(), bare?.t.close()]);
  await typebot.close();
  await new Promise((resolve) => receiver.close(resolve));
});

let counter = 0;
async function botConnection({ t, admin }: Rig, bot: Record<string, unknown>) {
  const queue = await makeQueue(t);
  const res = await t.app.inject({ method: "PUT", url: `/api/queue/${queue.id}/bot`, headers: admin.auth, payload: bot });
  expect(res.statusCode, res.body).toBe(200);
  return (await makeSimulatorConnection(t, admin, { queueIds: [queue.id] })).id;
}
async function typebotConnection(r: Rig, steps: Step[]) {
  counter += 1;
  const publicId = `media-flow-${counter}`;
  typebot.publish(publicId, steps);
  return botConnection(r, { kind: "typebot", baseUrl: typebot.url, publicId });
}
const png = { mimetype: "image/png", filename: "comprovante.png", dataBase64: PNG.toString("base64") };

/** The fake's continueChat requests of the customer's session, once `count` of them arrived. */
async function continued(r: Rig, from: string, count: number) {
  const ticket = await eventually(async () => {
    const row = await ticketRowOf(r.t, from);
    expect(row).toBeDefined();
    return row!;
  }, BOT_WAIT);
  const sessionId = await eventually(async () => {
    const [session] = await r.t.database.db.select().from(botSessions).where(eq(botSessions.ticketId, ticket.id));
    expect(session?.sessionId).toBeTruthy();
    return session.sessionId!;
  }, BOT_WAIT);
  return eventually(() => {
    const calls = typebot.requests.filter((q) => q.path === `/api/v1/sessions/${sessionId}/continueChat`);
    expect(calls).toHaveLength(count);
    return { sessionId, bodies: calls.map((c) => c.body as { message: Record<string, unknown> }) };
  }, BOT_WAIT);
}

/** Fetch a link through the real HTTP layer, with no session of any kind. */
const fetchLink = (t: TestApp, link: string) => t.app.inject({ method: "GET", url: new URL(link).pathname });

const FILE_FLOW: Step[] = [
  { bubbles: [{ type: "text", text: "Envie o comprovante" }], input: { type: "file input", saveAs: "comprovante" } },
  { bubbles: [{ type: "text", text: "Recebido: {{comprovante}}" }], input: { type: "text input", saveAs: "obs" } },
];

describe("the customer's files, for Typebot", () => {
  it("answers a file input with a signed link the bot can fetch without a session", async () => {
    const { t, admin } = linked;
    const whatsappId = await typebotConnection(linked, FILE_FLOW);
    const from = customerNumber();
    await customerWrites(t, admin, whatsappId, { from, body: "oi" });
    await eventually(async () => expect(await phoneReceived(t, admin, whatsappId, from)).toHaveLength(1), BOT_WAIT);
    await customerWrites(t, admin, whatsappId, { from, body: "", media: png });

    const { sessionId, bodies } = await continued(linked, from, 1);
    const message = bodies[0].message;
    expect(Object.keys(message).sort()).toEqual(["text", "type"]);
    const link = message.text as string;
    expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/api/public/media/\\d+\\.\\d+\\.[\\w-]{43}$`));
    // Typebot took it: the flow went on, saved the link and echoed it.
    expect(typebot.variablesOf(sessionId)).toMatchObject({ comprovante: link });
    await eventually(
      async () => expect((await phoneReceived(t, admin, whatsappId, from)).at(-1)?.body).toBe(`Recebido: ${link}`),
      BOT_WAIT,
    );

    const file = await fetchLink(t, link);
    expect(file.statusCode, file.body).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
    expect(file.headers["content-type"]).toBe("image/png");
  });

  it("sends the caption as the text and the link in attachedFileUrls to a text input that allows attachments", async () => {
    const { t, admin } = linked;
    const whatsappId = await typebotConnection(linked, [
      {
        bubbles: [{ type: "text", text: "Descreva o problema" }],
        input: { type: "text input", saveAs: "problema", attachments: { saveAs: "anexos" } },
      },
      { bubbles: [{ type: "text", text: "Anexo: {{anexos}}" }], input: { type: "text input" } },
    ]);
    const from = customerNumber();
    await customerWrites(t, admin, whatsappId, { from, body: "oi" });
    await eventually(async () => expect(await phoneReceived(t, admin, whatsappId, from)).toHaveLength(1), BOT_WAIT);
    await customerWrites(t, admin, whatsappId, { from, body: "a tela quebrou", media: png });

    const { sessionId, bodies } = await continued(linked, from, 1);
    const message = bodies[0].message as { type: string; text: string; attachedFileUrls: string[] };
    expect(message.type).toBe("text");
    expect(message.text).toBe("a tela quebrou");
    expect(message.attachedFileUrls).toHaveLength(1);
    const [link] = message.attachedFileUrls;
    expect(typebot.variablesOf(sessionId)).toMatchObject({ problema: "a tela quebrou", anexos: link });
    expect((await fetchLink(t, link)).rawPayload.equals(PNG)).toBe(true);
    // A plain text answer after it is sent as before: no attachments.
    await customerWrites(t, admin, whatsappId, { from, body: "obrigado" });
    const after = await continued(linked, from, 2);
    expect(after.bodies[1]).toEqual({ message: { type: "text", text: "obrigado" } });
  });

  it("refuses, as Typebot does, a reply that its input schema does not accept", async () => {
    counter += 1;
    typebot.publish(`media-flow-${counter}`, FILE_FLOW);
    const start = await fetch(`${typebot.url}/api/v1/typebots/media-flow-${counter}/startChat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const { sessionId } = (await start.json()) as { sessionId: string };
    const post = (message: unknown) =>
      fetch(`${typebot.url}/api/v1/sessions/${sessionId}/continueChat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message }),
      });
    for (const bad of [
      { type: "text", text: 5 },
      { type: "file", url: "x" },
      { type: "text", text: "x", attachedFileUrls: "x" },
    ]) {
      const res = await post(bad);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe("BAD_REQUEST");
    }
    // A file input takes a URL only: anything else gets the retry bubble and the same input.
    const retry = (await (await post({ type: "text", text: "a tela quebrou" })).json()) as { input?: { type: string } };
    expect(retry.input?.type).toBe("file input");
    expect(typebot.variablesOf(sessionId)?.comprovante).toBeUndefined();
  });
});

describe("the customer's files, for a webhook bot", () => {
  it("adds mediaUrl: a signed link for a file, null for a text", async () => {
    const { t, admin } = linked;
    const whatsappId = await botConnection(linked, { kind: "webhook", webhookUrl: `${receiverUrl}/linked` });
    const from = customerNumber();
    await customerWrites(t, admin, whatsappId, { from, body: "segue o boleto", media: png });
    await customerWrites(t, admin, whatsappId, { from, body: "e agora?" });
    const posts = await eventually(() => {
      const mine = received.filter((r) => r.path === "/linked");
      expect(mine).toHaveLength(2);
      return mine.map((r) => r.body.data.message);
    }, BOT_WAIT);
    expect(posts[0]).toMatchObject({ body: "segue o boleto", type: "image" });
    expect(posts[0].mediaUrl).toMatch(new RegExp(`^${PUBLIC_URL}/api/public/media/${posts[0].id}\\.`));
    expect(posts[1]).toMatchObject({ body: "e agora?", mediaUrl: null });
    const file = await fetchLink(t, posts[0].mediaUrl as string);
    expect(file.rawPayload.equals(PNG)).toBe(true);
    expect(file.headers["content-type"]).toBe("image/png");
  });
});

describe("without PUBLIC_URL", () => {
  it("sends Typebot and a webhook bot the text only, and says once in the log to set PUBLIC_URL", async () => {
    const { t, admin, logs } = bare;
    const whatsappId = await typebotConnection(bare, FILE_FLOW.slice(1));
    const from = customerNumber();
    await customerWrites(t, admin, whatsappId, { from, body: "oi" });
    await eventually(async () => expect(await phoneReceived(t, admin, whatsappId, from)).toHaveLength(1), BOT_WAIT);
    await customerWrites(t, admin, whatsappId, { from, body: "a foto", media: png });
    const { bodies } = await continued(bare, from, 1);
    expect(bodies[0]).toEqual({ message: { type: "text", text: "a foto" } });

    const hookId = await botConnection(bare, { kind: "webhook", webhookUrl: `${receiverUrl}/bare` });
    await customerWrites(t, admin, hookId, { from: customerNumber(), body: "", media: png });
    const post = await eventually(() => {
      const found = received.find((r) => r.path === "/bare");
      expect(found).toBeDefined();
      return found!.body.data.message;
    }, BOT_WAIT);
    expect(post).toMatchObject({ type: "image", mediaUrl: null });
    expect(logs.filter((line) => line.includes("set PUBLIC_URL"))).toHaveLength(1);
  });
});
