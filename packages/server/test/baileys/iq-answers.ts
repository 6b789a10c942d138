import type { BinaryNode } from "@whiskeysockets/baileys";

type StanzaEmitter = { emit(event: string, node: BinaryNode): boolean };

const text = (content: BinaryNode["content"]) =>
  typeof content === "string" ? content : content instanceof Uint8Array ? Buffer.from(content).toString() : "";

const children = (node: BinaryNode | undefined) => (Array.isArray(node?.content) ? node.content : []);

/**
 * WhatsApp's side of the real socket's iq queries, for the silent local server of real-whatsapp.ts:
 * every iq Baileys writes is answered under its id (`TAG:<id>`, where Baileys' `query` waits), as
 * a `type="result"`, so a paired socket gets through its `success` handling and opens. A
 * usync contact query (Baileys' `onWhatsApp`) is answered from `directory`: the phone number as
 * typed -> the id WhatsApp keeps for that account (a Brazilian account opened before the ninth
 * digit keeps the 12-digit form, Baileys #2124); a number not in it has no WhatsApp.
 */
export function answerIqs(options: { ws: StanzaEmitter; sentNodes(): Promise<BinaryNode[]>; directory: Map<string, string> }) {
  const answered = new Set<string>();
  const lookups: string[] = [];
  let stopped = false;

  function usyncAnswer(iq: BinaryNode): BinaryNode[] | undefined {
    const usync = children(iq).find((c) => c.tag === "usync");
    const list = children(usync).find((c) => c.tag === "list");
    if (!usync || !list) return undefined;
    const users = children(list).map((user) => {
      const typed = text(children(user).find((c) => c.tag === "contact")?.content).replace(/\D/g, "");
      lookups.push(typed);
      const known = options.directory.get(typed);
      return {
        tag: "user",
        attrs: { jid: `${known ?? typed}@s.whatsapp.net` },
        content: [{ tag: "contact", attrs: { type: known ? "in" : "out" } }],
      };
    });
    return [
      {
        tag: "usync",
        attrs: { sid: usync.attrs.sid ?? "", index: "0", last: "true" },
        content: [{ tag: "list", attrs: {}, content: users }],
      },
    ];
  }

  /**
   * The pre-key count and key-bundle digest of a logged-in device: plenty of pre-keys on the
   * server and a digest, so Baileys uploads none (an upload would replace the one-time pre-key the
   * simulated customer's session was built on).
   */
  function encryptAnswer(iq: BinaryNode): BinaryNode[] | undefined {
    if (iq.attrs.xmlns !== "encrypt" || iq.attrs.type !== "get") return undefined;
    const asked = children(iq)[0]?.tag;
    if (asked === "count") return [{ tag: "count", attrs: { value: "812" } }];
    if (asked === "digest") return [{ tag: "digest", attrs: {} }];
    return undefined;
  }

  async function loop() {
    while (!stopped) {
      for (const node of await options.sentNodes()) {
        const id = node.attrs.id;
        if (node.tag !== "iq" || !id || answered.has(id) || node.attrs.type === "result") continue;
        answered.add(id);
        const content = node.attrs.xmlns === "usync" ? usyncAnswer(node) : encryptAnswer(node);
        options.ws.emit(`TAG:${id}`, {
          tag: "iq",
          attrs: { id, type: "result", from: "s.whatsapp.net" },
          ...(content ? { content } : {}),
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  const running = loop();

  return {
    /** The numbers Baileys asked WhatsApp about, as typed. */
    lookups,
    async stop() {
      stopped = true;
      await running;
    },
  };
}
