import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Ticket } from "@zapdesk/core";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AppProviders } from "../../../app/providers";
import { createQueryClient } from "../../../lib/query-client";
import { type FakeRequest, fakeApi, signedInAs } from "../../../testing/fake-api";
import { layOutElements } from "../../../testing/layout";
import { renderWithProviders } from "../../../testing/render";
import { Location, ME, makeTicket, waiting } from "../../shortcuts/test-fixtures";
import { WAITING_TICK_MS, waitingParts } from "../utils/waiting-clock";
import { EmptyTicketPane } from "./empty-pane";
import { TicketActions } from "./ticket-actions";
import { TicketsManager } from "./tickets-manager";
import { WaitingSince } from "./waiting-since";

// Issue 13 item 3: the next conversation, and the waiting time.
async function setup(ticket: Ticket, next: (request: FakeRequest) => Ticket | null) {
  const api = fakeApi({
    "GET /api/tickets/next": (request) => ({ body: { ticket: next(request) } }),
    "PUT /api/tickets/:id": (request) => ({ body: { ...ticket, ...(request.body as Partial<Ticket>) } }),
    "GET /api/tickets": { body: { tickets: [], count: 0, hasMore: false } },
  });
  signedInAs(api, ME);
  await renderWithProviders(
    <>
      <TicketActions ticket={ticket} />
      <EmptyTicketPane />
      <Location />
    </>,
  );
  return api;
}

const location = () => screen.getByRole("status", { name: "location", hidden: true });

describe("after a ticket leaves the agent's hands", () => {
  it("Resolve (the e key) lands on the next ticket the server names", async () => {
    const api = await setup(makeTicket(5), () => waiting(6));
    const user = userEvent.setup();
    await screen.findByRole("button", { name: "Resolver" });
    await user.keyboard("e");
    await waitFor(() => expect(location()).toHaveTextContent(/^\/tickets\/6$/));
    expect(api.callsTo("PUT", "/api/tickets/5")[0].body).toEqual({ status: "closed", userId: ME.id });
    expect(api.callsTo("GET", "/api/tickets/next")[0].query.get("after")).toBe("5");
  });

  it("Return with nothing left shows 'All caught up'", async () => {
    await setup(makeTicket(5), () => null);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Retornar" }));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/tickets$/));
    expect(await screen.findByText("Tudo em dia")).toBeVisible();
  });

  it("t opens the transfer dialog; a waiting ticket's a accepts it and stays on it", async () => {
    const api = await setup(waiting(9), () => null);
    const user = userEvent.setup();
    await screen.findByRole("button", { name: "Aceitar" });
    await user.keyboard("a");
    await waitFor(() => expect(api.callsTo("PUT", "/api/tickets/9")).toHaveLength(1));
    expect(api.callsTo("PUT", "/api/tickets/9")[0].body).toEqual({ status: "open", userId: ME.id });
    await waitFor(() => expect(location()).toHaveTextContent(/^\/tickets\/9$/));
    expect(api.callsTo("GET", "/api/tickets/next")).toHaveLength(0);
    await user.keyboard("t");
    expect(await screen.findByRole("dialog")).toBeVisible();
  });
});

describe("waiting since", () => {
  afterEach(() => vi.useRealTimers());

  it("counts minutes, hours and days", () => {
    const at = Date.parse("2026-01-01T12:00:00.000Z");
    expect(waitingParts("2026-01-01T11:59:40.000Z", at)).toEqual({ unit: "now", value: 0 });
    expect(waitingParts("2026-01-01T11:48:00.000Z", at)).toEqual({ unit: "min", value: 12 });
    expect(waitingParts("2026-01-01T09:55:00.000Z", at)).toEqual({ unit: "h", value: 2, rest: 5 });
    expect(waitingParts("2025-12-29T12:00:00.000Z", at)).toEqual({ unit: "d", value: 3 });
  });

  it("ticks every 30 s on its own", () => {
    vi.useFakeTimers({ now: Date.parse("2026-01-01T12:00:00.000Z"), toFake: ["setInterval", "clearInterval", "Date"] });
    render(
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter>
          <WaitingSince since="2026-01-01T11:48:10.000Z" />
        </MemoryRouter>
      </AppProviders>,
    );
    expect(screen.getByTestId("waiting-since")).toHaveTextContent("11 min");
    act(() => vi.advanceTimersByTime(WAITING_TICK_MS * 2));
    expect(screen.getByTestId("waiting-since")).toHaveTextContent("12 min");
  });

  it("the Waiting list shows the timer and asks the server for oldest first on request", async () => {
    const api = fakeApi({
      "GET /api/tickets": (request) => {
        const tickets =
          request.query.get("status") === "pending"
            ? [waiting(7, { updatedAt: new Date(Date.now() - 12 * 60_000).toISOString() })]
            : [];
        return { body: { tickets, count: tickets.length, hasMore: false } };
      },
    });
    signedInAs(api, ME);
    const restoreLayout = layOutElements();
    await renderWithProviders(<TicketsManager />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("tab", { name: /Aguardando/ }));
    const row = await within(screen.getByRole("list", { name: "Aguardando" })).findByRole("listitem", { name: "Customer 7" });
    expect(within(row).getByTestId("waiting-since")).toHaveTextContent("12 min");
    const pendingCalls = () => api.callsTo("GET", "/api/tickets").filter((c) => c.query.get("status") === "pending");
    expect(pendingCalls().every((c) => !c.query.has("sort"))).toBe(true);
    await user.click(screen.getByRole("button", { name: "Mais antigos primeiro" }));
    await waitFor(() => expect(pendingCalls().some((c) => c.query.get("sort") === "oldest")).toBe(true));
    expect(screen.getByRole("button", { name: "Mais antigos primeiro" })).toHaveAttribute("aria-pressed", "true");
    restoreLayout();
    localStorage.removeItem("zapdesk.waitingOldestFirst");
  });
});
