import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ACK_FAILED, MEDIA_STATE, type Message } from "@zapdesk/core";
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

describe("what WhatsApp did to a message", () => {
  beforeEach(() => i18n.changeLanguage("en"));

  it("a refused message has a red mark, WhatsApp's reason, and sends again on request", async () => {
    const failed = { id: 41, fromMe: true, ack: ACK_FAILED, error: { code: "463", title: "Account restricted" } };
    const api = await show(failed, {
      "POST /api/messages/:id/retry": { body: aMessage({ ...failed, ack: 0, error: null }) },
    });
    expect(screen.getByRole("img", { name: "Not delivered" })).toHaveAttribute("data-ack", "-1");
    const notice = screen.getByRole("alert");
    expect(notice).toHaveTextContent("Not delivered: Account restricted (code 463)");
    await userEvent.setup().click(within(notice).getByRole("button", { name: "Send again" }));
    await waitFor(() => expect(api.callsTo("POST", "/api/messages/41/retry")).toHaveLength(1));
  });

  it("a delivered message has neither the red mark nor the send-again action", async () => {
    await show({ fromMe: true, ack: 2 });
    expect(screen.getByRole("img", { name: "Delivered" })).toBeInTheDocument();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.queryByRole("button", { name: "Send again" })).toBeNull();
  });

  it("shows reactions under the message, one chip per emoji with who put it", async () => {
    await show({
      reactions: [
        { emoji: "👍", fromMe: false, name: "Maria" },
        { emoji: "👍", fromMe: true, name: "Agent Smith" },
        { emoji: "❤️", fromMe: false, name: "João" },
      ],
    });
    const list = screen.getByRole("list", { name: "Reactions" });
    const items = within(list).getAllByRole("listitem");
    expect(items.map((i) => i.getAttribute("aria-label"))).toEqual(["👍 from Maria, You", "❤️ from João"]);
    expect(items[0]).toHaveTextContent("👍2");
  });

  it("says the customer wrote something Zapdesk cannot show, with WhatsApp's type", async () => {
    await show({ mediaType: "unsupported", body: "pollCreationMessage" });
    expect(screen.getByText("Unsupported message (pollCreationMessage): see it on the phone")).toBeInTheDocument();
    expect(screen.queryByText("pollCreationMessage")).toBeNull();
  });

  it("a message WhatsApp could not decrypt yet waits for its copy, then says it may never come", async () => {
    await show({ mediaType: "placeholder", body: "", createdAt: new Date(Date.now() - 60_000).toISOString() });
    expect(screen.getByTestId("message-placeholder")).toHaveTextContent(
      "Waiting for this message from the customer's phone: WhatsApp could not decrypt it here and asked for it again.",
    );
  });

  it("a placeholder older than the wait says the message never arrived and where to read it", async () => {
    await i18n.changeLanguage("pt");
    await show({ mediaType: "placeholder", body: "", createdAt: new Date(Date.now() - 2 * 60 * 60_000).toISOString() });
    expect(screen.getByTestId("message-placeholder")).toHaveTextContent(
      "Esta mensagem não chegou: o WhatsApp não conseguiu decifrá-la no Zapdesk. Leia no celular da empresa",
    );
  });

  it("tells media still downloading, too large, or failing and retried apart", async () => {
    await show({ mediaType: "image", mediaError: MEDIA_STATE.pending, body: "" });
    expect(screen.getByRole("status")).toHaveTextContent("Downloading media…");
  });

  it("says a file was too large to download", async () => {
    await show({ mediaType: "document", mediaError: MEDIA_STATE.tooLarge, body: "video.mp4" });
    expect(screen.getByText("File too large to download: ask the customer to send it another way.")).toBeInTheDocument();
  });

  it("says a failed download is being retried", async () => {
    await show({ mediaType: "image", mediaError: MEDIA_STATE.failed, body: "" });
    expect(screen.getByText("Could not download the media yet: trying again in the background.")).toBeInTheDocument();
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("says an imported message's file was not in the old system", async () => {
    await show({ mediaType: "image", mediaError: MEDIA_STATE.notInOldSystem, body: "foto.jpg" });
    expect(screen.getByText("File not found in the old system when this conversation was imported.")).toBeInTheDocument();
  });
});
