import { type InfiniteData, QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { aMessage } from "../../../testing/fixtures";
import type { MessagePage } from "../api/get-messages";
import { messageKeys } from "../api/message-keys";
import { upsertMessage } from "./message-cache";

function cached(client: QueryClient, ticketId: number) {
  return client.getQueryData<InfiniteData<MessagePage>>(messageKeys.list(ticketId))!.pages.flatMap((p) => p.messages);
}

function clientWith(messages: ReturnType<typeof aMessage>[]) {
  const client = new QueryClient();
  const page = { messages, count: messages.length, hasMore: false } as unknown as MessagePage;
  client.setQueryData<InfiniteData<MessagePage>>(messageKeys.list(7), { pages: [page], pageParams: [1] });
  return client;
}

describe("the conversation cache", () => {
  it("keeps the newest copy: a send's late answer never puts an ack back", () => {
    const client = clientWith([]);
    const sent = aMessage({ id: 20, fromMe: true, ack: 0, updatedAt: "2026-03-04T12:34:00.000Z" });
    // The realtime events of the send and of WhatsApp's answer arrive before the POST's own answer.
    upsertMessage(client, sent);
    upsertMessage(client, {
      ...sent,
      ack: -1,
      error: { code: "463", title: "restricted" },
      updatedAt: "2026-03-04T12:34:00.050Z",
    });
    upsertMessage(client, sent);
    expect(cached(client, 7)).toEqual([expect.objectContaining({ id: 20, ack: -1 })]);
    // A newer state replaces it.
    upsertMessage(client, { ...sent, ack: 0, error: null, updatedAt: "2026-03-04T12:35:00.000Z" });
    expect(cached(client, 7)[0]).toMatchObject({ ack: 0, error: null });
  });

  it("adds an unknown message in order and leaves other conversations alone", () => {
    const client = clientWith([aMessage({ id: 1, createdAt: "2026-03-04T12:00:00.000Z" })]);
    upsertMessage(client, aMessage({ id: 3, createdAt: "2026-03-04T12:30:00.000Z" }));
    upsertMessage(client, aMessage({ id: 2, createdAt: "2026-03-04T12:10:00.000Z" }));
    upsertMessage(client, aMessage({ id: 9, ticketId: 8 }));
    expect(cached(client, 7).map((m) => m.id)).toEqual([1, 2, 3]);
    expect(client.getQueryData(messageKeys.list(8))).toBeUndefined();
  });
});
