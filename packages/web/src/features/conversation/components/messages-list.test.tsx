import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ConnectionProvider } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aMessage, aTicket } from "../../../testing/fixtures";
import { renderWithProviders } from "../../../testing/render";
import { MessagesList } from "./messages-list";

async function openMenu(provider: ConnectionProvider) {
  await i18n.changeLanguage("en");
  const api = fakeApi({
    "GET /api/messages/:ticketId": {
      body: { messages: [aMessage({ id: 5, fromMe: true, body: "On its way" })], ticket: aTicket(), count: 1, hasMore: false },
    },
  });
  signedInAs(api, AGENT);
  await renderWithProviders(<MessagesList ticketId={7} isGroup={false} provider={provider} onReply={() => {}} />);
  await screen.findByText("On its way");
  await userEvent.setup().click(screen.getByRole("button", { name: "Message options" }));
  await screen.findByRole("menuitem", { name: "Reply" });
}

describe("the message menu offers what the connection can do", () => {
  it("a QR connection can delete our message for everyone", async () => {
    await openMenu("baileys");
    expect(screen.getByRole("menuitem", { name: "Delete" })).toBeInTheDocument();
  });

  it("the Cloud API cannot: no delete, only reply", async () => {
    await openMenu("cloud");
    expect(screen.queryByRole("menuitem", { name: "Delete" })).toBeNull();
  });
});

describe("older messages", () => {
  it("are asked for once per page, however many scroll events come before the page arrives", async () => {
    let release = () => {};
    const page = (pageNumber: number) => ({
      messages: [aMessage({ id: 100 - pageNumber, body: `message of page ${pageNumber}` })],
      ticket: aTicket(),
      count: 2,
      hasMore: pageNumber === 1,
    });
    const api = fakeApi({
      "GET /api/messages/:ticketId": async (request) => {
        const pageNumber = Number(request.query.get("pageNumber"));
        if (pageNumber > 1) await new Promise<void>((resolve) => (release = resolve));
        return { body: page(pageNumber) };
      },
    });
    signedInAs(api, AGENT);
    await renderWithProviders(<MessagesList ticketId={7} isGroup={false} provider="baileys" onReply={() => {}} />);
    await screen.findByText("message of page 1");
    const log = screen.getByRole("log");
    act(() => {
      for (let i = 0; i < 3; i++) log.dispatchEvent(new Event("scroll"));
    });
    const pagesAsked = () => api.callsTo("GET", "/api/messages/7").map((c) => c.query.get("pageNumber"));
    await act(async () => release());
    await screen.findByText("message of page 2");
    expect(pagesAsked()).toEqual(["1", "2"]);
  });
});

const at = (minute: number) => new Date(Date.UTC(2026, 0, 5, 9, minute)).toISOString();

describe("a long conversation", () => {
  it("keeps only the rows in view in the page: 5,000 messages do not make 5,000 bubbles", async () => {
    const messages = Array.from({ length: 5000 }, (_, i) =>
      aMessage({ id: i + 1, body: `line ${i + 1}`, createdAt: at(i % 60) }),
    );
    const api = fakeApi({
      "GET /api/messages/:ticketId": { body: { messages, ticket: aTicket(), count: 5000, hasMore: false } },
    });
    signedInAs(api, AGENT);
    const { container } = await renderWithProviders(
      <MessagesList ticketId={7} isGroup={false} provider="baileys" onReply={() => {}} />,
    );
    await screen.findByRole("log");
    await waitFor(() => expect(container.querySelectorAll("[data-message-id]").length).toBeGreaterThan(0));
    expect(container.querySelectorAll("[data-message-id]").length).toBeLessThan(100);
  });
});

describe("opened on a searched message", () => {
  // The ticket's 60 messages in pages of 20, newest page first: page 2 holds ids 21-40.
  const pageOf = (pageNumber: number) => ({
    messages: Array.from({ length: 20 }, (_, i) => {
      const id = (3 - pageNumber) * 20 + i + 1;
      return aMessage({ id, body: `message ${id}`, createdAt: at(id % 60) });
    }),
    ticket: aTicket(),
    count: 60,
    hasMore: pageNumber < 3,
    hasNewer: pageNumber > 1,
    pageNumber,
  });

  it("loads the page around it, highlights it, then loads newer pages when scrolled down", async () => {
    const api = fakeApi({
      "GET /api/messages/:ticketId": (request) =>
        request.query.get("around") === "30" ? { body: pageOf(2) } : { body: pageOf(Number(request.query.get("pageNumber"))) },
    });
    signedInAs(api, AGENT);
    await renderWithProviders(
      <MessagesList ticketId={7} isGroup={false} provider="baileys" aroundMessageId={30} onReply={() => {}} />,
    );
    await screen.findByText("message 30");
    const row = () => screen.getByText("message 30").closest("[data-index]");
    await waitFor(() => expect(row()).toHaveAttribute("aria-current", "true"));
    expect(row()).toHaveClass("message-highlighted");
    expect(api.callsTo("GET", "/api/messages/7")[0].query.get("around")).toBe("30");

    act(() => {
      screen.getByRole("log").dispatchEvent(new Event("scroll"));
    });
    // The newer page (page 1, the live end) is asked for, plainly by number.
    await waitFor(() => expect(api.callsTo("GET", "/api/messages/7").map((c) => c.query.get("pageNumber"))).toEqual(["1", "1"]));
    expect(api.callsTo("GET", "/api/messages/7")[1].query.get("around")).toBeNull();
  });
});
