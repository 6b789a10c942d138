import { act, screen } from "@testing-library/react";
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
  renderWithProviders(<MessagesList ticketId={7} isGroup={false} provider={provider} onReply={() => {}} />);
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
    renderWithProviders(<MessagesList ticketId={7} isGroup={false} provider="baileys" onReply={() => {}} />);
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
