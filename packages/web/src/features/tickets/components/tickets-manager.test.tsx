import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Ticket } from "@zapdesk/core";
import { useLocation } from "react-router";
import { describe, expect, it } from "vitest";
import { AGENT, type FakeRequest, fakeApi, signedInAs } from "../../../testing/fake-api";
import { laidOutElements } from "../../../testing/layout";
import { renderWithProviders } from "../../../testing/render";
import { TicketsManager } from "./tickets-manager";

const QUEUE = { id: 3, name: "Sales", color: "#1273DE" };
const ME = { ...AGENT, queues: [QUEUE] };

function makeTicket(id: number, over: Partial<Ticket> = {}): Ticket {
  return {
    id,
    status: "open",
    rating: null,
    unreadMessages: 0,
    lastMessage: `last ${id}`,
    isGroup: false,
    userId: ME.id,
    queueId: QUEUE.id,
    contactId: id,
    whatsappId: 1,
    createdAt: "2026-01-01T10:00:00.000Z",
    updatedAt: "2026-01-01T10:00:00.000Z",
    contact: { id, name: `Customer ${id}`, number: `55110000${id}`, profilePicUrl: "" },
    queue: QUEUE,
    user: { id: ME.id, name: ME.name },
    whatsapp: { id: 1, name: "Main", provider: "simulator" },
    lastInboundAt: null,
    tags: [],
    ...over,
  };
}

/** Where the app navigated to (path and query). */
function Location() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname + location.search}</output>;
}

async function setup(byStatus: (request: FakeRequest) => Ticket[], me = ME) {
  const api = fakeApi({
    "GET /api/tickets": (request) => {
      const tickets = byStatus(request);
      return { body: { tickets, count: tickets.length, hasMore: false } };
    },
    "PUT /api/tickets/:id": (request) => ({ body: makeTicket(Number(request.params.id), request.body as Partial<Ticket>) }),
  });
  signedInAs(api, me);
  await renderWithProviders(
    <>
      <TicketsManager />
      <Location />
    </>,
  );
  return api;
}

describe("the tickets list pane", () => {
  // jsdom lays nothing out: give scroll containers a viewport so the virtualiser has rows to show.
  laidOutElements();

  it("keeps only the visible rows of 10,000 tickets in the page, and scrolls through them", async () => {
    const many = Array.from({ length: 10_000 }, (_v, i) => makeTicket(i + 1));
    await setup((r) => (r.query.get("status") === "open" ? many : []));
    const list = await screen.findByRole("list", { name: "Atendendo" });
    await within(list).findByRole("button", { name: "Customer 1" });
    expect(within(list).getAllByRole("listitem").length).toBeLessThan(40);
    expect(screen.getByRole("tab", { name: /Atendendo/ })).toHaveTextContent("9999+");

    list.scrollTop = 84 * 5000;
    fireEvent.scroll(list);
    await within(list).findByRole("button", { name: "Customer 5001" });
    expect(within(list).queryByRole("button", { name: "Customer 1" })).toBeNull();
    expect(within(list).getAllByRole("listitem").length).toBeLessThan(40);
  });

  it("shows pending rows with Accept and not clickable; Accept sends the spec's payload", async () => {
    const waiting = makeTicket(7, { status: "pending", userId: null, user: null, queueId: null, queue: null, unreadMessages: 2 });
    const api = await setup((r) => (r.query.get("status") === "pending" ? [waiting] : []));
    const user = userEvent.setup();
    expect(await screen.findByText("Nada aqui!")).toBeVisible();
    await user.click(screen.getByRole("tab", { name: /Aguardando/ }));
    const list = screen.getByRole("list", { name: "Aguardando" });
    const row = await within(list).findByRole("listitem", { name: "Customer 7" });
    expect(within(row).queryByRole("button", { name: "Customer 7" })).toBeNull();
    expect(within(row).getAllByText("Sem fila").length).toBeGreaterThan(0);
    expect(within(row).getByLabelText("2 mensagens não lidas")).toBeInTheDocument();
    const firstLoad = api.callsTo("GET", "/api/tickets")[0].query;
    expect(firstLoad.get("queueIds")).toBe(JSON.stringify([QUEUE.id]));
    expect(firstLoad.get("showAll")).toBe("false");
    await user.click(within(row).getByRole("button", { name: "Aceitar" }));
    await waitFor(() => expect(api.callsTo("PUT", "/api/tickets/7")).toHaveLength(1));
    expect(api.callsTo("PUT", "/api/tickets/7")[0].body).toEqual({ status: "open", userId: ME.id });
  });

  it("marks closed tickets 'resolvido' in the Resolved tab", async () => {
    await setup((r) => (r.query.get("status") === "closed" ? [makeTicket(9, { status: "closed" })] : []));
    const user = userEvent.setup();
    await user.click(await screen.findByRole("tab", { name: "Resolvidos" }));
    const row = await screen.findByRole("button", { name: "Customer 9" });
    expect(within(row).getByText("resolvido")).toBeVisible();
  });

  it("searches lower-cased from 3 characters after 500 ms, and clearing returns to the Inbox", async () => {
    const api = await setup((r) =>
      r.query.get("searchParam") === "mar" ? [makeTicket(4, { contact: { ...makeTicket(4).contact, name: "Maria" } })] : [],
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole("tab", { name: "Busca" }));
    const field = screen.getByRole("searchbox", { name: "Pesquisar tickets e mensagens" });
    await user.type(field, "MA");
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(api.calls.filter((c) => c.query.get("searchParam"))).toHaveLength(0);
    await user.type(field, "R");
    expect(await screen.findByRole("button", { name: "Maria" }, { timeout: 2000 })).toBeVisible();
    const searches = api.calls.filter((c) => c.query.get("searchParam"));
    expect(searches.map((c) => c.query.get("searchParam"))).toEqual(["mar"]);
    expect(searches[0].query.has("status")).toBe(false);
    await user.clear(field);
    expect(screen.getByRole("tab", { name: /Inbox/ })).toHaveAttribute("aria-selected", "true");
  });

  it("opens a search result on its matching message, or on the chat when only the contact matched", async () => {
    await setup((r) =>
      r.query.get("searchParam") === "reembolso"
        ? [makeTicket(4, { matchedMessageId: 77 }), makeTicket(5, { matchedMessageId: null })]
        : [],
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole("tab", { name: "Busca" }));
    await user.type(screen.getByRole("searchbox", { name: "Pesquisar tickets e mensagens" }), "reembolso");
    await user.click(await screen.findByRole("button", { name: "Customer 4" }, { timeout: 2000 }));
    expect(screen.getByRole("status", { name: "location" })).toHaveTextContent("/tickets/4?message=77");
    await user.click(screen.getByRole("button", { name: "Customer 5" }));
    expect(screen.getByRole("status", { name: "location" })).toHaveTextContent(/^\/tickets\/5$/);
  });

  it("shows a search's total, and a capped one as what it is: at least that many (issue 24)", async () => {
    const api = fakeApi({
      "GET /api/tickets": (request) => {
        const term = request.query.get("searchParam");
        if (term === "pedido") return { body: { tickets: [makeTicket(4)], count: 1000, hasMore: true, countCapped: true } };
        if (term === "troca") return { body: { tickets: [makeTicket(5)], count: 1, hasMore: false, countCapped: false } };
        return { body: { tickets: [], count: 0, hasMore: false } };
      },
    });
    signedInAs(api, ME);
    await renderWithProviders(<TicketsManager />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("tab", { name: "Busca" }));
    const field = screen.getByRole("searchbox", { name: "Pesquisar tickets e mensagens" });
    await user.type(field, "pedido");
    expect(await screen.findByText("1.000+ tickets", {}, { timeout: 2000 })).toBeVisible();
    await user.clear(field);
    await user.click(await screen.findByRole("tab", { name: "Busca" }));
    await user.type(screen.getByRole("searchbox", { name: "Pesquisar tickets e mensagens" }), "troca");
    expect(await screen.findByText("1 ticket", {}, { timeout: 2000 })).toBeVisible();
    expect(screen.queryByText(/\+ tickets/)).toBeNull();
  });

  it("asks for the user's own tickets only once every queue is unticked (issue 12, item 20)", async () => {
    const api = await setup(() => []);
    const user = userEvent.setup();
    await waitFor(() => expect(api.callsTo("GET", "/api/tickets").length).toBeGreaterThan(0));
    await user.click(screen.getByRole("combobox", { name: "Filas" }));
    await user.click(await screen.findByRole("option", { name: "Sales" }));
    await waitFor(() => expect(api.callsTo("GET", "/api/tickets").some((c) => c.query.get("queueIds") === "[]")).toBe(true));
  });

  it("sends no queue filter for a user without queues", async () => {
    const api = await setup(() => [], { ...ME, queues: [] });
    await waitFor(() => expect(api.callsTo("GET", "/api/tickets").length).toBeGreaterThan(0));
    expect(screen.queryByRole("combobox", { name: "Filas" })).toBeNull();
    for (const call of api.callsTo("GET", "/api/tickets")) expect(call.query.has("queueIds")).toBe(false);
  });
});
