import { randomBytes } from "node:crypto";
import { proto, type WAMessage } from "@whiskeysockets/baileys";
import { expect, vi } from "vitest";
import type { Rig } from "./baileys-test-rig.js";

export const CUSTOMER = "5511999990001@s.whatsapp.net";

let n = 0;
const run = randomBytes(3).toString("hex").toUpperCase();

/** A message as Baileys' decoder builds it: a plain key (with its Alt fields) around a proto.Message. */
export function incoming(
  message: proto.IMessage,
  key: Partial<WAMessage["key"]> = {},
  extra: Partial<WAMessage> = {},
): WAMessage {
  n += 1;
  return {
    key: { remoteJid: CUSTOMER, fromMe: false, id: `3A${run}${String(n).padStart(6, "0")}`, ...key },
    messageTimestamp: 1_700_000_000 + n,
    pushName: "Ana",
    message: proto.Message.fromObject(message),
    ...extra,
  };
}

/** Emit upserts on a rig's socket and wait for what the handlers got. */
export function driver(rig: Pick<Rig, "socket" | "rec">) {
  const { rec } = rig;
  const seen = () => rec.messages.length + rec.updates.length;
  async function deliver(message: WAMessage, type: "notify" | "append" = "notify") {
    const before = seen();
    rig.socket.ev.emit("messages.upsert", { messages: [message], type });
    await vi.waitFor(() => expect(seen()).toBeGreaterThan(before));
    return rec.messages.at(-1)!;
  }
  /** Emits something that must be ignored, then a marker message; only the marker may arrive. */
  async function expectIgnored(message: WAMessage) {
    const before = seen();
    rig.socket.ev.emit("messages.upsert", { messages: [message], type: "notify" });
    const marker = await deliver(incoming({ conversation: "marker" }));
    expect(marker.body).toBe("marker");
    expect(seen()).toBe(before + 1);
  }
  return { deliver, expectIgnored };
}
