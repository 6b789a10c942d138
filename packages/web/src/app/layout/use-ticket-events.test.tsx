import { type InfiniteData, useQueryClient } from "@tanstack/react-query";
import { act, screen } from "@testing-library/react";
import type { Ticket } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import type { MessagePage } from "../../features/conversation/api/get-messages";
import { messageKeys } from "../../features/conversation/api/message-keys";
import type { TicketPage } from "../../features/tickets/api/get-tickets";
import { ticketKeys } from "../../features/tickets/api/ticket-keys";
import { useAuth } from "../../lib/auth";
import type { TicketEventHandlers } from "../../lib/realtime-sync";
import { AGENT, fakeApi, signedInAs } from "../../testing/fake-api";
import { aMessage } from "../../testing/fixtures";
import { renderWithProviders } from "../../testing/render";
import { useTicketEvents } from "./use-ticket-events";

const ticket = (id: number): Ticket =>
  ({
    id,
    status: "closed",
    unreadMessages: 0,
    lastMessage: `segredo ${id}`,
    isGroup: false,
    userId: AGENT.id,
    queueId: null,
    contactId: 1,
    whatsappId: 1,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    contact: { id: 1, name: "Maria", number: "5511", profilePicUrl: "" },
    queue: null,
    user: null,
    whatsapp: null,
    tags: [],
  }) as unknown as Ticket;
const listParams = { status: "closed", searchParam: "", showAll: true, queueIds: [] };

let handlers: TicketEventHandlers | undefined;
let client: ReturnType<typeof useQueryClient> | undefined;

function Probe() {
  const { user } = useAuth();
  handlers = useTicketEvents();
  client = useQueryClient();
  return user ? <p>ready</p> : null;
}

describe("a retention sweep on screen (issue 22 §1)", () => {
  it("refetches the swept ticket's conversation and drops its preview, leaving other tickets alone", async () => {
    signedInAs(fakeApi(), AGENT);
    await renderWithProviders(<Probe />);
    await screen.findByText("ready");
    const qc = client!;
    for (const id of [7, 8]) {
      const page = { messages: [aMessage({ id, ticketId: id })], count: 1, hasMore: false } as unknown as MessagePage;
      qc.setQueryData<InfiniteData<MessagePage>>(messageKeys.list(id), { pages: [page], pageParams: [1] });
      qc.setQueryData(ticketKeys.detail(id), ticket(id));
    }
    qc.setQueryData(ticketKeys.list(listParams as never), {
      pages: [{ tickets: [ticket(7), ticket(8)], count: 2, hasMore: false }],
      pageParams: [1],
    });

    act(() => handlers!.messagesRemoved!({ ticketId: 7, removed: "messages" }));

    expect(qc.getQueryState(messageKeys.list(7))?.isInvalidated).toBe(true);
    expect(qc.getQueryState(messageKeys.list(8))?.isInvalidated).toBe(false);
    const list = qc.getQueryData<{ pages: TicketPage[] }>(ticketKeys.list(listParams as never))!.pages[0].tickets;
    expect(list.map((t) => [t.id, t.lastMessage])).toEqual([
      [7, ""],
      [8, "segredo 8"],
    ]);
    expect(qc.getQueryData<Ticket>(ticketKeys.detail(7))?.lastMessage).toBe("");

    // Media only: the messages stay (marked), so the preview stays; the conversation is refetched.
    act(() => handlers!.messagesRemoved!({ ticketId: 8, removed: "media" }));
    expect(qc.getQueryState(messageKeys.list(8))?.isInvalidated).toBe(true);
    expect(qc.getQueryData<Ticket>(ticketKeys.detail(8))?.lastMessage).toBe("segredo 8");
  });
});
