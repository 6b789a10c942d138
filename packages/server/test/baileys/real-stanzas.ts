import type { BinaryNode } from "@whiskeysockets/baileys";

/**
 * Server stanzas for the real-socket rig (real-whatsapp.ts), and the way Baileys' frame loop
 * (`onMessageReceived` in lib/Socket/socket.js) hands a received node to its handlers.
 */
type StanzaEmitter = { emit(event: string, node: BinaryNode): boolean };

/**
 * Hands a server node to Baileys' handlers under every name its frame loop (`onMessageReceived`
 * in rc14's socket.js) emits for it: `TAG:<id>`, then for each attribute `CB:t,k:v,c`,
 * `CB:t,k:v`, `CB:t,k`, then `CB:t,,c` and `CB:t`. Never `frame`: before the noise handshake
 * Baileys' only `frame` listener waits for the server hello and would take the node for it.
 * Whether any handler took it.
 */
export function dispatch(ws: StanzaEmitter, node: BinaryNode): boolean {
  const child = Array.isArray(node.content) ? (node.content[0]?.tag ?? "") : "";
  let handled = node.attrs.id ? ws.emit(`TAG:${node.attrs.id}`, node) : false;
  for (const [key, value] of Object.entries(node.attrs)) {
    handled = ws.emit(`CB:${node.tag},${key}:${value},${child}`, node) || handled;
    handled = ws.emit(`CB:${node.tag},${key}:${value}`, node) || handled;
    handled = ws.emit(`CB:${node.tag},${key}`, node) || handled;
  }
  handled = ws.emit(`CB:${node.tag},,${child}`, node) || handled;
  return ws.emit(`CB:${node.tag}`, node) || handled;
}

const seconds = () => String(Math.floor(Date.now() / 1000));
const result = (iq: BinaryNode, content?: BinaryNode[]): BinaryNode => ({
  tag: "iq",
  attrs: { id: iq.attrs.id, type: "result", from: "s.whatsapp.net" },
  ...(content ? { content } : {}),
});

/**
 * WhatsApp's side of the IQs Baileys sends after `success`: enough pre-keys on the server and a key
 * bundle digest (so Baileys uploads none: an upload would regenerate pre-key 1, which a simulated
 * customer's session was built on), and the passive IQ.
 */
export function loginAnswer(iq: BinaryNode): BinaryNode | undefined {
  const child = Array.isArray(iq.content) ? iq.content[0] : undefined;
  if (iq.attrs.xmlns === "encrypt" && child?.tag === "count") return result(iq, [{ tag: "count", attrs: { value: "100" } }]);
  if (iq.attrs.xmlns === "encrypt" && child?.tag === "digest") return result(iq, [{ tag: "digest", attrs: {} }]);
  if (iq.attrs.xmlns === "passive") return result(iq);
  return undefined;
}

/** The GraphQL ("mex") query id of an IQ, when it is one. */
export function mexQueryId(iq: BinaryNode): string | undefined {
  if (iq.attrs.xmlns !== "w:mex" || !Array.isArray(iq.content)) return undefined;
  return iq.content[0]?.attrs.query_id;
}

/** A mex query's answer carrying `data` (Baileys reads `result`'s JSON `{ data: { <path>: … } }`). */
export function mexAnswer(iq: BinaryNode, data: Record<string, unknown>): BinaryNode {
  return result(iq, [{ tag: "result", attrs: {}, content: Buffer.from(JSON.stringify({ data })) }]);
}

/** WhatsApp's GraphQL push: `<notification type="mex"><update op_name=…>{"data":…}</update></notification>`. */
export function mexNotification(id: string, opName: string, data: Record<string, unknown>): BinaryNode {
  return {
    tag: "notification",
    attrs: { from: "s.whatsapp.net", type: "mex", id, t: seconds() },
    content: [{ tag: "update", attrs: { op_name: opName }, content: Buffer.from(JSON.stringify({ data })) }],
  };
}

/** The server accepted our login: Baileys runs its post-login IQs, then emits `connection: "open"`. */
export function loginSuccess(): BinaryNode {
  return { tag: "success", attrs: { t: seconds() } };
}

/** Baileys' query ids (lib/Types/Mex.js) for the restriction queries. */
export const MEX_QUERY = { reachoutTimelock: "23983697327930364", messageCappingInfo: "24503548349331633" } as const;
