import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { HANDOVER_VARIABLE, type HandoverInput, MEDIA_STATE, matchesWord } from "@zapdesk/core";
import type { Db } from "../../db/client.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { MediaLinks } from "../../media/media-links.js";
import type { MediaStorage } from "../../media/storage.js";
import { findContactById, listExtraInfo } from "../contacts/contacts.repo.js";
import { findMessage, type MessageRow } from "../messages/messages.repo.js";
import { storeBuffer, UPLOAD_LIMITS, type UploadedMedia } from "../messages/uploads.js";
import { signBody, USER_AGENT } from "../outbound-webhooks/delivery-worker.js";
import { postJson } from "../outbound-webhooks/http-post.js";
import { assertAllowedTarget } from "../outbound-webhooks/target-guard.js";
import { allowsPrivateTargets } from "../outbound-webhooks/webhooks.service.js";
import type { TicketRow } from "../tickets/tickets.repo.js";
import type { BotConfigRow, BotSessionRow } from "./bots.repo.js";
import { parseHandover } from "./handover.js";
import {
  answerFor,
  BotFailure,
  continueChat,
  render,
  resultVariables,
  SessionGone,
  startChat,
  TYPEBOT_TIMEOUT_MS,
  type TypebotReply,
  type TypebotTarget,
} from "./typebot.js";

/** What the bot made of one customer message, to store in one transaction. */
export interface BotTurn {
  /** Sent in order, as the bot's. */
  outgoing: { body: string; media?: UploadedMedia }[];
  /** The session after the turn (Typebot). */
  session?: Pick<BotSessionRow, "sessionId" | "typebotId" | "resultId" | "choices" | "inputType">;
  /** Contact fields to write (variables out). */
  fields: { name: string; value: string }[];
  handover?: HandoverInput;
  /** Why it handed over (logged). */
  reason?: string;
}

export interface RunDeps {
  db: Db;
  secrets: SecretBox;
  storage: MediaStorage;
  timeoutMs?: number;
  mediaLinks: MediaLinks;
}

/** How often a turn looks again for the customer's file while it is being downloaded. */
const MEDIA_POLL_MS = 100;

/**
 * The customer's message as the bot gets it, with a link to fetch its file at (`url`), or null: a
 * message without a file (or whose file is too large, or failed to download), or no PUBLIC_URL to
 * build the link from (said once in the log). An inbound file is downloaded after its message is
 * stored, beside the bot's queue, so a turn waits for it a little (at most a bot call's deadline)
 * and goes on without it after that; the message is read again, as the download completes it.
 */
export async function customerMedia(deps: RunDeps, message: MessageRow): Promise<{ message: MessageRow; url: string | null }> {
  const downloading = (row: MessageRow) => !row.mediaPath && row.mediaError === MEDIA_STATE.pending;
  if (!message.mediaPath && !downloading(message)) return { message, url: null };
  if (!deps.mediaLinks.enabled) return { message, url: deps.mediaLinks.urlFor(message.id) };
  let current = message;
  const deadline = Date.now() + (deps.timeoutMs ?? TYPEBOT_TIMEOUT_MS);
  while (downloading(current) && Date.now() < deadline) {
    await sleep(MEDIA_POLL_MS);
    const again = await findMessage(deps.db, message.id);
    if (!again) return { message, url: null };
    current = again;
  }
  return { message: current, url: current.mediaPath ? deps.mediaLinks.urlFor(current.id) : null };
}

/** The contact's fields by name: name, number, email, then its extra fields (case aside). */
async function contactFields(db: Db, contactId: number): Promise<Map<string, string>> {
  const contact = await findContactById(db, contactId);
  const fields = new Map<string, string>();
  if (!contact) return fields;
  fields.set("name", contact.name);
  fields.set("number", contact.number);
  fields.set("email", contact.email);
  for (const extra of await listExtraInfo(db, contactId)) fields.set(extra.name.toLowerCase(), extra.value);
  return fields;
}

/** Open a sealed secret (an API token), or null when none is stored or it cannot be read. */
function openSecret(secrets: SecretBox, sealed: string | null): string | null {
  if (!sealed) return null;
  try {
    return secrets.open(sealed);
  } catch {
    return null;
  }
}

/**
 * Fetch a bot's media URL into our storage (capped at the upload limit), as an upload would be. The
 * URL comes from the flow's answer: like a webhook's target, it may not be a private or loopback
 * address unless the administrator allows them (`webhookAllowPrivate`), or a flow could have us
 * fetch the cloud's metadata or an internal page and send it to the customer. No redirects: each
 * hop would need the same check.
 */
async function fetchMedia(storage: MediaStorage, url: string, timeoutMs: number, allowPrivate: boolean): Promise<UploadedMedia> {
  try {
    await assertAllowedTarget(url, allowPrivate);
  } catch (error) {
    throw new BotFailure(`media refused: ${(error as Error).message}`);
  }
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "error" });
  } catch (error) {
    throw new BotFailure(`media unreachable: ${(error as Error).message}`);
  }
  if (!response.ok) throw new BotFailure(`media: HTTP ${response.status}`);
  const length = Number(response.headers.get("content-length") ?? 0);
  if (length > UPLOAD_LIMITS.fileSize) throw new BotFailure("media over the size limit");
  const data = Buffer.from(await response.arrayBuffer());
  if (data.length > UPLOAD_LIMITS.fileSize || data.length === 0) throw new BotFailure("media empty or over the size limit");
  const name = decodeURIComponent(new URL(url).pathname.split("/").pop() || "media");
  return storeBuffer(storage, data, name, response.headers.get("content-type") ?? undefined);
}

/** A Typebot turn: start the session on the first message (or when Typebot forgot it), continue it after. */
export async function typebotTurn(
  deps: RunDeps,
  bot: BotConfigRow,
  session: BotSessionRow,
  ticket: TicketRow,
  message: MessageRow,
): Promise<BotTurn> {
  const timeoutMs = deps.timeoutMs;
  const target: TypebotTarget = {
    baseUrl: bot.baseUrl ?? "",
    publicId: bot.publicId ?? "",
    apiToken: openSecret(deps.secrets, bot.apiToken),
  };
  const start = async () => {
    const fields = await contactFields(deps.db, ticket.contactId);
    const prefilled: Record<string, string> = {};
    for (const pair of bot.variablesIn) {
      const value = fields.get(pair.field.toLowerCase());
      if (value !== undefined) prefilled[pair.variable] = value;
    }
    return startChat(target, prefilled, timeoutMs);
  };
  let reply: TypebotReply;
  let state = { sessionId: session.sessionId, typebotId: session.typebotId, resultId: session.resultId };
  if (!session.sessionId) reply = await start();
  else {
    try {
      const media = await customerMedia(deps, message);
      const answer = answerFor(media.message.body, session, media.url);
      reply = await continueChat(target, session.sessionId, answer, timeoutMs);
    } catch (error) {
      if (!(error instanceof SessionGone)) throw error;
      reply = await start();
    }
  }
  if (reply.sessionId)
    state = { sessionId: reply.sessionId, typebotId: reply.typebot?.id ?? null, resultId: reply.resultId ?? null };
  const rendered = render(reply);
  const variables =
    target.apiToken && state.typebotId && state.resultId
      ? await resultVariables(target, state.typebotId, state.resultId, timeoutMs)
      : new Map<string, string>();
  const outgoing: BotTurn["outgoing"] = [];
  for (const part of rendered.parts) {
    if (part.kind === "text") outgoing.push({ body: part.body });
    else {
      const allowPrivate = await allowsPrivateTargets(deps.db);
      outgoing.push({ body: "", media: await fetchMedia(deps.storage, part.url, timeoutMs ?? 10_000, allowPrivate) });
    }
  }
  const fields = bot.variablesOut.flatMap((pair) => {
    const value = variables.get(pair.variable);
    return value === undefined ? [] : [{ name: pair.field, value }];
  });
  const byVariable = parseHandover(variables.get(HANDOVER_VARIABLE));
  const handover = byVariable ?? (rendered.ended ? { to: "queue" as const } : undefined);
  return {
    outgoing,
    session: { ...state, choices: rendered.choices, inputType: rendered.inputType },
    fields,
    handover,
    reason: byVariable ? `${HANDOVER_VARIABLE} variable` : rendered.ended ? "end of the flow" : undefined,
  };
}

/** The body a webhook bot receives for a customer message (docs/bots.md); `mediaUrl`: customerMedia's link. */
export async function webhookBody(db: Db, ticket: TicketRow, message: MessageRow, mediaUrl: string | null): Promise<string> {
  const contact = await findContactById(db, ticket.contactId);
  return JSON.stringify({
    event: "bot.message",
    timestamp: new Date().toISOString(),
    data: {
      ticketId: ticket.id,
      queueId: ticket.queueId,
      contact: contact ? { id: contact.id, name: contact.name, number: contact.number } : null,
      message: {
        id: message.id,
        body: message.body,
        type: message.mediaType,
        createdAt: message.createdAt.toISOString(),
        mediaUrl,
      },
    },
  });
}

/** A webhook bot's turn: POST the message signed like our outbound webhooks; it answers through the API. */
export async function webhookTurn(deps: RunDeps, bot: BotConfigRow, ticket: TicketRow, message: MessageRow, jobId: number) {
  const secret = openSecret(deps.secrets, bot.secret);
  if (!secret || !bot.webhookUrl) throw new BotFailure("the webhook bot's secret cannot be read");
  const media = await customerMedia(deps, message);
  const body = await webhookBody(deps.db, ticket, media.message, media.url);
  const outcome = await postJson(
    bot.webhookUrl,
    body,
    {
      "user-agent": USER_AGENT,
      "x-zapdesk-event": "bot.message",
      "x-zapdesk-delivery": `bot-${jobId}`,
      "x-zapdesk-signature": signBody(secret, body),
      "x-request-id": randomUUID(),
    },
    { allowPrivate: await allowsPrivateTargets(deps.db), timeoutMs: deps.timeoutMs },
  );
  if (!outcome.ok) throw new BotFailure(`webhook bot: ${outcome.error ?? "failed"}`);
}

/** Whether the customer asks for a person (a whole message of the bot's words). */
export function asksForPerson(bot: Pick<BotConfigRow, "handoverWords">, body: string): boolean {
  return matchesWord(body, bot.handoverWords);
}
