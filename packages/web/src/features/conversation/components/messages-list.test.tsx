import { screen } from "@testing-library/react";
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
