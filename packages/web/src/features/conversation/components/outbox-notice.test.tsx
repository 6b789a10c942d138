import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type Message, OUTBOX_NOTICES } from "@zapdesk/core";
import { beforeEach, describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aMessage } from "../../../testing/fixtures";
import { renderWithProviders } from "../../../testing/render";
import { MessageBubble } from "./message-bubble";

async function show(message: Partial<Message>, routes = {}) {
  const api = fakeApi(routes);
  signedInAs(api, AGENT);
  await renderWithProviders(<MessageBubble message={aMessage(message)} isGroup={false} onMenu={() => {}} />);
  return api;
}

describe("what the outbox did with a message", () => {
  beforeEach(() => i18n.changeLanguage("en"));

  it("a held message says why it waits and offers nothing to do: it goes by itself", async () => {
    await show({ fromMe: true, ack: 0, error: { code: OUTBOX_NOTICES.held, title: "Held: WhatsApp's time-lock on new chats" } });
    const notice = screen.getByRole("status");
    expect(notice).toHaveTextContent("Held: WhatsApp does not let this number start new chats right now.");
    expect(notice).toHaveAttribute("title", "Held: WhatsApp's time-lock on new chats");
    expect(within(notice).queryByRole("button")).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("an unconfirmed message says it may have arrived, and is sent again only on request", async () => {
    const unknown = { id: 52, fromMe: true, ack: 0, error: { code: OUTBOX_NOTICES.outcomeUnknown, title: "No answer" } };
    const api = await show(unknown, { "POST /api/messages/:id/retry": { body: aMessage({ ...unknown, error: null }) } });
    const notice = screen.getByRole("status");
    expect(notice).toHaveTextContent("WhatsApp did not confirm this message: it may have arrived.");
    await userEvent.setup().click(within(notice).getByRole("button", { name: "Send again" }));
    await waitFor(() => expect(api.callsTo("POST", "/api/messages/52/retry")).toHaveLength(1));
  });

  it("a message settled by its status shows no notice", async () => {
    await show({ fromMe: true, ack: 2, error: null });
    expect(screen.queryByRole("status")).toBeNull();
  });
});
