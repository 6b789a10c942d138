/**
 * Issue 23 §4: Typebot's chat API (docs.typebot.io, "Chat API"): start a session with the
 * customer's first message and the contact's prefilledVariables, continue it with each message,
 * and turn its answer (text, image, video, audio, embed bubbles and the input it waits on) into
 * what we send on WhatsApp.
 */

export const TYPEBOT_TIMEOUT_MS = 10_000;

/** A failure to reach the bot or an answer we cannot use: the ticket goes to the queue. */
export class BotFailure extends Error {}
/** The session is gone on Typebot's side (unknown, or expired): start a new one. */
export class SessionGone extends Error {}

interface RichNode {
  type?: string;
  text?: string;
  bold?: boolean;
  italic?: boolean;
  url?: string;
  children?: RichNode[];
}

export interface TypebotMessage {
  type: string;
  content?: { type?: string; richText?: RichNode[]; markdown?: string; url?: string };
}

export interface TypebotReply {
  sessionId?: string;
  resultId?: string;
  typebot?: { id: string };
  messages?: TypebotMessage[];
  input?: { type: string; items?: { content?: string }[] };
}

/**
 * A reply to the input Typebot waits on (its chat API's `message`). `attachedFileUrls` is read by a
 * text input that allows attachments (into its attachments variable); a file input reads the file's
 * URL from `text` ("url, url" for several).
 */
export interface TypebotAnswer {
  type: "text";
  text: string;
  attachedFileUrls?: string[];
}

/** What one answer becomes: messages to send in order, the choices waited on, and whether the flow ended. */
export interface Rendered {
  parts: ({ kind: "text"; body: string } | { kind: "media"; url: string; mediaType: "image" | "video" | "audio" })[];
  choices: string[] | null;
  /** The type of the input the flow now waits on ("text input", "file input"…), null when it ended. */
  inputType: string | null;
  ended: boolean;
}

/** A Slate leaf in WhatsApp's formatting: bold *x*, italic _x_ (around the words, not their spaces). */
function leaf(node: RichNode): string {
  const text = node.text ?? "";
  if (!text.trim() || (!node.bold && !node.italic)) return text;
  const [, lead, core, trail] = /^(\s*)(.*?)(\s*)$/s.exec(text) ?? ["", "", text, ""];
  let marked = core;
  if (node.italic) marked = `_${marked}_`;
  if (node.bold) marked = `*${marked}*`;
  return `${lead}${marked}${trail}`;
}

function inline(nodes: RichNode[] = []): string {
  return nodes
    .map((node) => {
      if (node.type === "a") {
        const text = inline(node.children);
        return node.url && node.url !== text ? `${text} (${node.url})` : text;
      }
      if (node.children) return inline(node.children);
      return leaf(node);
    })
    .join("");
}

/** Typebot's rich text (paragraphs of Slate nodes) as a WhatsApp text. */
export function richTextToWhatsApp(blocks: RichNode[]): string {
  return blocks
    .map((block) => (block.children ? inline(block.children) : leaf(block)))
    .join("\n")
    .trim();
}

/** The numbered options of a choice input, as the queue menu writes them. */
export function choicesText(items: string[]): string {
  return items.map((item, index) => `*${index + 1}* - ${item}`).join("\n");
}

/** A customer's "2" answers the second choice; anything else goes to the bot as typed. */
export function answerOf(body: string, choices: string[] | null): string {
  const match = /^\s*\*?(\d{1,3})\*?\s*$/.exec(body);
  if (!choices || !match) return body;
  return choices[Number(match[1]) - 1] ?? body;
}

/**
 * What the customer's message answers, as the input Typebot waits on reads it. With a link to the
 * customer's file: a file input takes the link as its text (Typebot checks it is a URL); any other
 * input gets the caption (or, without one, the link) as text and the link in `attachedFileUrls`,
 * which a text input that allows attachments saves in its attachments variable.
 */
export function answerFor(
  body: string,
  waiting: { choices: string[] | null; inputType: string | null },
  mediaUrl: string | null,
): TypebotAnswer {
  if (!mediaUrl) return { type: "text", text: answerOf(body, waiting.choices) };
  if (waiting.inputType === "file input") return { type: "text", text: mediaUrl };
  return { type: "text", text: body.trim() ? answerOf(body, waiting.choices) : mediaUrl, attachedFileUrls: [mediaUrl] };
}

export function render(reply: TypebotReply): Rendered {
  const parts: Rendered["parts"] = [];
  for (const message of reply.messages ?? []) {
    const content = message.content ?? {};
    if (message.type === "text") {
      const body = content.richText ? richTextToWhatsApp(content.richText) : (content.markdown ?? "").trim();
      if (body) parts.push({ kind: "text", body });
    } else if ((message.type === "image" || message.type === "video" || message.type === "audio") && content.url) {
      parts.push({ kind: "media", url: content.url, mediaType: message.type });
    } else if (message.type === "embed" && content.url) {
      parts.push({ kind: "text", body: content.url });
    }
  }
  const input = reply.input;
  let choices: string[] | null = null;
  if (input?.type === "choice input") {
    choices = (input.items ?? []).map((item) => item.content ?? "").filter((text) => text.length > 0);
    if (choices.length) parts.push({ kind: "text", body: choicesText(choices) });
  }
  return { parts, choices, inputType: input?.type ?? null, ended: !input };
}

export interface TypebotTarget {
  baseUrl: string;
  publicId: string;
  apiToken: string | null;
}

async function call(url: string, init: { method: string; body?: unknown; token?: string | null }, timeoutMs: number) {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method,
      headers: {
        accept: "application/json",
        ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "error",
    });
  } catch (error) {
    throw new BotFailure(`Typebot unreachable: ${(error as Error).message}`);
  }
  const text = await response.text().catch(() => "");
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    throw new BotFailure(`Typebot answered HTTP ${response.status} without JSON`);
  }
  return { status: response.status, body };
}

const base = (target: TypebotTarget) => target.baseUrl.replace(/\/+$/, "");

/**
 * A new session. The customer's first message opens the conversation and is not sent as an answer
 * (Typebot would take it as the answer to the flow's first input); the flow greets them.
 */
export async function startChat(
  target: TypebotTarget,
  prefilledVariables: Record<string, string>,
  timeoutMs = TYPEBOT_TIMEOUT_MS,
): Promise<TypebotReply> {
  const url = `${base(target)}/api/v1/typebots/${encodeURIComponent(target.publicId)}/startChat`;
  const answer = await call(
    url,
    { method: "POST", body: { prefilledVariables, textBubbleContentFormat: "richText" }, token: target.apiToken },
    timeoutMs,
  );
  if (answer.status !== 200) throw new BotFailure(`Typebot startChat: HTTP ${answer.status}`);
  const reply = answer.body as TypebotReply;
  if (!reply.sessionId) throw new BotFailure("Typebot startChat: no sessionId");
  return reply;
}

export async function continueChat(
  target: TypebotTarget,
  sessionId: string,
  message: TypebotAnswer,
  timeoutMs = TYPEBOT_TIMEOUT_MS,
): Promise<TypebotReply> {
  const url = `${base(target)}/api/v1/sessions/${encodeURIComponent(sessionId)}/continueChat`;
  const answer = await call(url, { method: "POST", body: { message } }, timeoutMs);
  const error = answer.body as { message?: string };
  // 404 "Session not found." (ended or unknown), 400 "Session expired…": the session is over.
  if (answer.status === 404 || (answer.status === 400 && /expired/i.test(error.message ?? ""))) throw new SessionGone();
  if (answer.status !== 200) throw new BotFailure(`Typebot continueChat: HTTP ${answer.status}`);
  return answer.body as TypebotReply;
}

/** The result's variables (Typebot's results API, which needs the API token): name → value. */
export async function resultVariables(
  target: TypebotTarget,
  typebotId: string,
  resultId: string,
  timeoutMs = TYPEBOT_TIMEOUT_MS,
): Promise<Map<string, string>> {
  const url = `${base(target)}/api/v1/typebots/${encodeURIComponent(typebotId)}/results/${encodeURIComponent(resultId)}`;
  const answer = await call(url, { method: "GET", token: target.apiToken }, timeoutMs);
  if (answer.status !== 200) throw new BotFailure(`Typebot results: HTTP ${answer.status}`);
  const variables = (answer.body as { result?: { variables?: { name: string; value?: unknown }[] } }).result?.variables ?? [];
  return new Map(
    variables.filter((v) => v.value !== undefined && v.value !== null).map((v) => [v.name, String(v.value)] as [string, string]),
  );
}
