import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderApp } from "../../../testing/render";

async function openTool(path: string, routes = {}) {
  await i18n.changeLanguage("en");
  const server = fakeApi(routes);
  signedInAs(server, ADMIN);
  const user = userEvent.setup();
  await renderApp(path);
  return { server, user };
}

describe("tool screens (spec §1, §2)", () => {
  it("requires every field, then only announces the paid version", async () => {
    const { server, user } = await openTool("/ZDG");
    expect(await screen.findByText("Send messages and files in blocks of 30 contacts.")).toBeInTheDocument();
    for (const label of [/^Dispatch ID/, /^Numbers/, /^Message/])
      expect(screen.getByRole("textbox", { name: label })).toBeRequired();
    await user.type(screen.getByLabelText(/Dispatch ID/), "1");
    await user.type(screen.getByLabelText(/Numbers/), "5511999999999");
    const before = server.calls.length;
    await user.click(screen.getByRole("button", { name: "Send" }));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument(); // the message is still empty
    await user.type(screen.getByRole("textbox", { name: /^Message/ }), "Hello");
    await user.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByRole("alertdialog")).toHaveTextContent("This tool is available in the paid version.");
    expect(server.calls.length).toBe(before);
  });

  it("shows the dispatch ID from GET /whatsappzdg", async () => {
    const { user } = await openTool("/ZDGMedia", { "GET /api/whatsappzdg": { body: { id: 42 } } });
    await user.click(await screen.findByRole("button", { name: "Show dispatch ID" }));
    expect(await screen.findByRole("alertdialog")).toHaveTextContent(/^42/);
  });

  it("alerts 'Erro: ' and the server's message when there is no dispatch ID", async () => {
    const { user } = await openTool("/ZDGHistorico", {
      "GET /api/whatsappzdg": { status: 404, body: { error: "ERR_NO_DEF_WAPP_FOUND", message: "No default WhatsApp found" } },
    });
    expect(await screen.findByText("Use low import limits.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Show dispatch ID" }));
    expect(await screen.findByRole("alertdialog")).toHaveTextContent("Erro: No default WhatsApp found");
  });

  it("offers the six group tabs with a reset button", async () => {
    const { user } = await openTool("/ZDGGroups");
    const tabs = await screen.findAllByRole("tab");
    expect(tabs.map((t) => t.textContent)).toEqual([
      "Update group",
      "Create group",
      "Open group",
      "Close group",
      "Group message",
      "Private message to members",
    ]);
    await user.click(screen.getByRole("tab", { name: "Create group" }));
    const title = screen.getByLabelText(/Title/);
    await user.type(title, "VIP");
    await user.click(screen.getByRole("button", { name: "Reset fields" }));
    expect(screen.getByLabelText(/Title/)).toHaveValue("");
  });

  it("embeds the sales page from settings, and explains when it is not set", async () => {
    await openTool("/ZDGComunidade", {
      "GET /api/public-settings": {
        body: [
          { key: "salesPageUrl", value: "https://example.com/buy" },
          { key: "communityPageUrl", value: "" },
        ],
      },
    });
    expect(await screen.findByTitle("Buy licence")).toHaveAttribute("src", "https://example.com/buy");
  });

  it("shows an empty state when the community page is not configured", async () => {
    await openTool("/ZDGPassaporte", { "GET /api/public-settings": { body: [{ key: "communityPageUrl", value: "" }] } });
    expect(await screen.findByText("Page not configured")).toBeInTheDocument();
    expect(document.querySelector("iframe")).toBeNull();
  });

  it("shows the chatbot image", async () => {
    await openTool("/ZDGChatbot");
    expect(await screen.findByRole("img", { name: /How the chatbot works/ })).toHaveAttribute("src");
  });
});
