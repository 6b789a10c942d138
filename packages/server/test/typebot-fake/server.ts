import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local fake of Typebot's chat API (its public reference: docs.typebot.io "Chat API"), for the
 * bot tests: a real HTTP server answering
 *   POST /api/v1/typebots/{publicId}/startChat   { message?, prefilledVariables?, textBubbleContentFormat? }
 *   POST /api/v1/sessions/{sessionId}/continueChat { message?: string | { type: "text", text, attachedFileUrls? } }
 *   GET  /api/v1/typebots/{typebotId}/results/{resultId} (Bearer API token) → { result: { variables } }
 * with Typebot's shapes: `{ sessionId, typebot: { id, version, theme, settings }, resultId, messages,
 * input?, clientSideActions?, logs? }`, text bubbles as `{ type: "richText", richText: [...] }`,
 * "choice input" with `items: [{ id, content }]`. Errors as Typebot's tRPC-OpenAPI layer answers
 * them: `{ message, code }` with 404 (unknown bot or session) or 400 (expired session); a body its
 * input schema refuses (a message that is neither a string nor `{ type: "text", text: string,
 * attachedFileUrls?: string[] }`) is 400 "Input validation failed" with the issues, as its zod check is.
 *
 * Files, as Typebot's engine (continueBotFlow) reads a reply: a **file input** takes the URL(s) from
 * `text` ("url, url"), refused (the retry bubble, the same input) unless one is a URL, the first only
 * when several are not allowed, saved in its variable; a **text input that allows attachments** saves
 * `attachedFileUrls` in its attachments variable (one URL as it is, several as a list) and the text in
 * its own. Other inputs ignore `attachedFileUrls`.
 */

/** A rich text paragraph's leaves (Typebot's Slate nodes). */
export interface Leaf {
  text: string;
  bold?: boolean;
  italic?: boolean;
}
export type Bubble =
  | { type: "text"; text: string | Leaf[] }
  | { type: "image"; url: string }
  | { type: "video"; url: string }
  | { type: "audio"; url: string }
  | { type: "embed"; url: string };

/** One group of a flow: bubbles, then an input (its answer saved to `saveAs`), or the flow's end. */
export interface Step {
  bubbles: Bubble[];
  input?:
    | { type: "choice input"; items: string[]; saveAs?: string }
    | { type: "text input"; saveAs?: string; attachments?: { saveAs: string } }
    | { type: "file input"; saveAs?: string; isMultipleAllowed?: boolean };
  /** Set variables when the step is reached ("Set variable" blocks). */
  set?: Record<string, string>;
}

interface Session {
  id: string;
  bot: string;
  resultId: string;
  step: number;
  variables: Map<string, string>;
}

export interface FakeRequest {
  method: string;
  path: string;
  body: unknown;
  authorization?: string;
}

const nid = () => randomBytes(12).toString("hex");

/** The input block as Typebot's answer shows it (`input`). */
function inputMessage(input: NonNullable<Step["input"]>) {
  switch (input.type) {
    case "choice input":
      return {
        id: nid(),
        type: "choice input",
        items: input.items.map((content) => ({ id: nid(), outgoingEdgeId: nid(), content })),
        options: { isMultipleChoice: false },
      };
    case "text input":
      return {
        id: nid(),
        type: "text input",
        options: {
          labels: { placeholder: "Type your answer..." },
          isLong: false,
          ...(input.attachments ? { attachments: { isEnabled: true, saveVariableId: `v${input.attachments.saveAs}` } } : {}),
        },
      };
    case "file input":
      return {
        id: nid(),
        type: "file input",
        options: { isMultipleAllowed: input.isMultipleAllowed ?? false, labels: { placeholder: "Click to upload" } },
      };
  }
}

type Reply = { type: "text"; text: string; attachedFileUrls?: string[] };

/** Typebot's continueChat input check: the reply, or the issues it answers 400 with. */
function parseMessage(message: unknown): { reply?: Reply; issues?: { path: string[]; message: string }[] } {
  if (message === undefined) return {};
  if (typeof message === "string") return { reply: { type: "text", text: message } };
  const m = message as Partial<Record<string, unknown>> | null;
  const issues: { path: string[]; message: string }[] = [];
  if (!m || typeof m !== "object" || Array.isArray(m)) return { issues: [{ path: ["message"], message: "Expected object" }] };
  if (m.type !== "text") issues.push({ path: ["message", "type"], message: "Invalid discriminator value. Expected 'text'" });
  if (typeof m.text !== "string") issues.push({ path: ["message", "text"], message: "Expected string" });
  const files = m.attachedFileUrls;
  if (files !== undefined && (!Array.isArray(files) || files.some((url) => typeof url !== "string")))
    issues.push({ path: ["message", "attachedFileUrls"], message: "Expected array of strings" });
  if (issues.length) return { issues };
  return { reply: { type: "text", text: m.text as string, attachedFileUrls: files as string[] | undefined } };
}

/** Typebot's URL check of a file input's reply (validator's isURL, which wants a scheme and a host). */
function isUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

function richText(text: string | Leaf[], variables: Map<string, string>) {
  const fill = (s: string) => s.replace(/\{\{\s*([\w ]+?)\s*\}\}/g, (_, name: string) => variables.get(name) ?? "");
  const leaves: Leaf[] = typeof text === "string" ? [{ text }] : text;
  return { type: "richText", richText: [{ type: "p", children: leaves.map((leaf) => ({ ...leaf, text: fill(leaf.text) })) }] };
}

function bubbleMessage(bubble: Bubble, variables: Map<string, string>) {
  const id = nid();
  switch (bubble.type) {
    case "text":
      return { id, type: "text", content: richText(bubble.text, variables) };
    case "image":
      return { id, type: "image", content: { url: bubble.url } };
    case "video":
      return { id, type: "video", content: { type: "url", url: bubble.url, id: null, height: 400 } };
    case "audio":
      return { id, type: "audio", content: { url: bubble.url, isAutoplayEnabled: true } };
    case "embed":
      return { id, type: "embed", content: { url: bubble.url, height: 400 } };
  }
}

export async function startTypebotFake(options: { apiToken?: string } = {}) {
  const flows = new Map<string, { typebotId: string; steps: Step[] }>();
  const sessions = new Map<string, Session>();
  const results = new Map<string, Map<string, string>>();
  const expired = new Set<string>();
  const requests: FakeRequest[] = [];
  /** Answers to give instead of the real ones (a status), in order. */
  const failures: number[] = [];
  let hang = false;

  function reply(session: Session, messages: unknown[] = []) {
    const flow = flows.get(session.bot);
    if (!flow) throw new Error("flow vanished");
    const out = [...messages];
    // Run steps until one waits for an input or the flow ends.
    for (;;) {
      const step = flow.steps[session.step];
      if (!step) {
        sessions.delete(session.id);
        return { messages: out };
      }
      for (const [name, value] of Object.entries(step.set ?? {})) session.variables.set(name, value);
      out.push(...step.bubbles.map((b) => bubbleMessage(b, session.variables)));
      if (step.input) {
        const input = inputMessage(step.input);
        return { messages: out, input };
      }
      session.step += 1;
      if (!flow.steps[session.step]) {
        sessions.delete(session.id);
        return { messages: out };
      }
    }
  }

  function start(bot: string, body: { prefilledVariables?: Record<string, unknown> }) {
    const flow = flows.get(bot);
    if (!flow) return { status: 404, body: { message: "Typebot not found", code: "NOT_FOUND" } };
    const resultId = nid();
    const variables = new Map<string, string>();
    results.set(resultId, variables);
    for (const [name, value] of Object.entries(body.prefilledVariables ?? {})) variables.set(name, String(value));
    const session: Session = { id: nid(), bot, resultId, step: 0, variables };
    sessions.set(session.id, session);
    const answer = reply(session);
    return {
      status: 200,
      body: {
        sessionId: session.id,
        typebot: { id: flow.typebotId, version: "6", theme: {}, settings: {} },
        resultId,
        ...answer,
      },
    };
  }

  function continueChat(sessionId: string, body: { message?: unknown } | null) {
    const parsed = parseMessage(body?.message);
    if (parsed.issues)
      return { status: 400, body: { message: "Input validation failed", code: "BAD_REQUEST", issues: parsed.issues } };
    if (expired.has(sessionId))
      return { status: 400, body: { message: "Session expired. You need to start a new session.", code: "BAD_REQUEST" } };
    const session = sessions.get(sessionId);
    if (!session) return { status: 404, body: { message: "Session not found.", code: "NOT_FOUND" } };
    const text = parsed.reply?.text ?? "";
    const step = flows.get(session.bot)?.steps[session.step];
    const input = step?.input;
    // Typebot's answer to an invalid reply: a retry bubble and the same input again.
    const retry = () => ({
      status: 200,
      body: {
        ...reply(session, [bubbleMessage({ type: "text", text: "Invalid message. Please, try again." }, session.variables)]),
        lastMessageNewFormat: text,
      },
    });
    if (input?.type === "choice input" && !input.items.some((item) => item.toLowerCase() === text.trim().toLowerCase()))
      return retry();
    if (input?.type === "file input") {
      const urls = text.split(", ");
      if (!urls.some(isUrl)) return retry();
      if (input.saveAs) session.variables.set(input.saveAs, input.isMultipleAllowed ? text : text.split(",")[0]);
    } else if (input?.saveAs) session.variables.set(input.saveAs, text.trim());
    const files = parsed.reply?.attachedFileUrls ?? [];
    if (input?.type === "text input" && input.attachments && files.length > 0)
      session.variables.set(input.attachments.saveAs, files.length === 1 ? files[0] : JSON.stringify(files));
    session.step += 1;
    return { status: 200, body: reply(session) };
  }

  function result(typebotId: string, resultId: string, authorization?: string) {
    if (!options.apiToken || authorization !== `Bearer ${options.apiToken}`)
      return { status: 401, body: { message: "You must be authenticated to perform this action.", code: "UNAUTHORIZED" } };
    const variables = results.get(resultId);
    const known = [...flows.values()].some((flow) => flow.typebotId === typebotId);
    if (!variables || !known) return { status: 404, body: { message: "Result not found", code: "NOT_FOUND" } };
    return {
      status: 200,
      body: {
        result: {
          id: resultId,
          typebotId,
          isCompleted: false,
          variables: [...variables].map(([name, value]) => ({ id: `v${name}`, name, value })),
          answers: [],
        },
      },
    };
  }

  function route(req: IncomingMessage, body: unknown) {
    const url = new URL(req.url ?? "/", "http://fake");
    let match = /^\/api\/v1\/typebots\/([^/]+)\/startChat$/.exec(url.pathname);
    if (req.method === "POST" && match) return start(decodeURIComponent(match[1]), (body ?? {}) as never);
    match = /^\/api\/v1\/sessions\/([^/]+)\/continueChat$/.exec(url.pathname);
    if (req.method === "POST" && match) return continueChat(decodeURIComponent(match[1]), body as never);
    match = /^\/api\/v1\/typebots\/([^/]+)\/results\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && match) return result(match[1], match[2], req.headers.authorization);
    if (req.method === "GET" && url.pathname.startsWith("/media/")) return { status: 200, media: true, body: null };
    return { status: 404, body: { message: "Not found", code: "NOT_FOUND" } };
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        res
          .writeHead(400, { "content-type": "application/json" })
          .end(JSON.stringify({ message: "Invalid JSON", code: "PARSE_ERROR" }));
        return;
      }
      const path = (req.url ?? "/").split("?")[0];
      requests.push({ method: req.method ?? "", path, body, authorization: req.headers.authorization });
      if (hang) return; // Never answers: the caller's deadline must fire.
      const failure = path.startsWith("/media/") ? undefined : failures.shift();
      if (failure) {
        res
          .writeHead(failure, { "content-type": "application/json" })
          .end(JSON.stringify({ message: "Internal error", code: "INTERNAL_SERVER_ERROR" }));
        return;
      }
      const answer = route(req, body);
      if ("media" in answer) {
        res.writeHead(200, { "content-type": "image/png" }).end(PNG);
        return;
      }
      res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    /** Publish a flow under a public id. */
    publish(publicId: string, steps: Step[], typebotId = `tb_${publicId}`) {
      flows.set(publicId, { typebotId, steps });
    },
    /** The session's stored variables (what a flow's answers set). */
    variablesOf(sessionId: string) {
      const session = sessions.get(sessionId);
      return session ? Object.fromEntries(session.variables) : undefined;
    },
    expire(sessionId: string) {
      expired.add(sessionId);
    },
    /** The next chat API calls answer these statuses. */
    failNext(...statuses: number[]) {
      failures.push(...statuses);
    },
    setHang(value: boolean) {
      hang = value;
    },
    mediaUrl: (name: string) => `${url}/media/${name}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type TypebotFake = Awaited<ReturnType<typeof startTypebotFake>>;

/** A 1×1 PNG, served for every /media/ URL. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
