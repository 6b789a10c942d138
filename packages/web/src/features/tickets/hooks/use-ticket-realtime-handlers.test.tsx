import { useQueryClient } from "@tanstack/react-query";
import { act, screen } from "@testing-library/react";
import type { RealtimePayloads, Ticket } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import { useAuth } from "../../../lib/auth";
import { ADMIN, AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { type TicketListParams, ticketKeys } from "../api/ticket-keys";
import { useTicketMovedAway } from "./use-ticket-moved-away";
import { useTicketRealtimeHandlers } from "./use-ticket-realtime-handlers";

// Issue 12 item 21: the chat of a ticket that leaves the agent's hands learns it from the events.
const mine: Ticket = {
  id: 7,
  status: "open",
  rating: null,
  unreadMessages: 0,
  lastMessage: "hi",
  isGroup: false,
  userId: AGENT.id,
  queueId: 3,
  contactId: 1,
  whatsappId: 1,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  contact: { id: 1, name: "Maria", number: "5511", profilePicUrl: "" },
  queue: { id: 3, name: "Sales", color: "#1273DE" },
  user: { id: AGENT.id, name: AGENT.name },
  whatsapp: { id: 1, name: "Main", provider: "simulator" },
  lastInboundAt: null,
  tags: [],
};

let dispatch: (event: RealtimePayloads["ticket"]) => void = () => {};

function Probe() {
  const { user } = useAuth();
  const client = useQueryClient();
  const handlers = useTicketRealtimeHandlers();
  const moved = useTicketMovedAway(mine.id);
  dispatch = handlers.ticket;
  if (!user) return null;
  if (!client.getQueryData(ticketKeys.detail(mine.id))) client.setQueryData(ticketKeys.detail(mine.id), mine);
  return <p>{moved ? "moved away" : "still here"}</p>;
}

async function setup() {
  signedInAs(fakeApi(), AGENT);
  await renderWithProviders(<Probe />);
  await screen.findByText("still here");
}

describe("a ticket leaving the agent's hands", () => {
  it("is marked moved away when a transfer gives it to someone else, and not when it only changes", async () => {
    await setup();
    act(() => dispatch({ action: "update", ticket: { ...mine, lastMessage: "new" } }));
    expect(screen.getByText("still here")).toBeVisible();
    act(() => dispatch({ action: "update", ticket: { ...mine, userId: 9, user: { id: 9, name: "Bob" } } }));
    expect(await screen.findByText("moved away")).toBeVisible();
    act(() => dispatch({ action: "update", ticket: mine }));
    expect(await screen.findByText("still here")).toBeVisible();
  });

  it("is marked moved away when it moves out of reach, and not when it is deleted", async () => {
    await setup();
    act(() => dispatch({ action: "delete", ticketId: mine.id }));
    expect(screen.getByText("still here")).toBeVisible();
    act(() => dispatch({ action: "delete", ticketId: mine.id, reason: "moved" }));
    expect(await screen.findByText("moved away")).toBeVisible();
  });
});

// Issue 23 §4: the handlers know whether the signed-in user is an admin, who sees the tickets a bot holds.
describe("a ticket a bot holds", () => {
  const waiting: TicketListParams = { status: "pending", searchParam: "", showAll: false, queueIds: null };
  const held: Ticket = { ...mine, id: 8, status: "pending", userId: null, user: null, botHeld: true };
  let handlers: ReturnType<typeof useTicketRealtimeHandlers> | undefined;
  let client: ReturnType<typeof useQueryClient> | undefined;
  function Lists() {
    const { user } = useAuth();
    client = useQueryClient();
    handlers = useTicketRealtimeHandlers();
    return user ? <p>signed in</p> : null;
  }
  async function waitingIdsAfterEvent(user: typeof ADMIN) {
    signedInAs(fakeApi(), user);
    await renderWithProviders(<Lists />);
    await screen.findByText("signed in");
    client?.setQueryData(ticketKeys.list(waiting), { pages: [{ tickets: [], count: 0, hasMore: false }], pageParams: [1] });
    act(() => handlers?.appMessage({ action: "create", message: {} as never, ticket: held, contact: held.contact }));
    const data = client?.getQueryData<{ pages: { tickets: Ticket[] }[] }>(ticketKeys.list(waiting));
    return data?.pages[0].tickets.map((t) => t.id);
  }

  it("stays out of an agent's waiting list", async () => {
    expect(await waitingIdsAfterEvent(AGENT)).toEqual([]);
  });

  it("reaches an admin's waiting list", async () => {
    expect(await waitingIdsAfterEvent(ADMIN)).toEqual([held.id]);
  });
});
