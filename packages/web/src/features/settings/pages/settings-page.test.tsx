import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderApp } from "../../../testing/render";

const SETTINGS = [
  { key: "userCreation", value: "enabled" },
  { key: "userApiToken", value: "tok-123" },
  { key: "timeCreateNewTicket", value: "7200" },
  { key: "call", value: "enabled" },
  { key: "CheckMsgIsGroup", value: "disabled" },
  { key: "protocolWebhookUrl", value: "" },
  { key: "salesPageUrl", value: "" },
  { key: "communityPageUrl", value: "" },
];

async function openSettings() {
  await i18n.changeLanguage("en");
  const server = fakeApi({
    "GET /api/settings": { body: SETTINGS },
    "PUT /api/settings/:key": (req) => ({ body: { key: req.params.key, value: (req.body as { value: string }).value } }),
  });
  signedInAs(server, ADMIN);
  const user = userEvent.setup();
  await renderApp("/Settings");
  await screen.findByRole("heading", { name: "Settings" });
  return { server, user };
}

describe("settings page", () => {
  it("saves a select setting with PUT /settings/:key", async () => {
    const { server, user } = await openSettings();
    const delay = await screen.findByRole("combobox", { name: /Time before a new ticket/ });
    expect(delay).toHaveTextContent("2 hours");
    await user.click(delay);
    const options = await screen.findAllByRole("option");
    expect(options.map((o) => o.textContent)).toEqual([
      "10 seconds",
      "30 seconds",
      "1 minute",
      "5 minutes",
      "30 minutes",
      "1 hour",
      "2 hours",
      "6 hours",
      "12 hours",
      "24 hours",
      "48 hours",
    ]);
    await user.click(screen.getByRole("option", { name: "5 minutes" }));
    await waitFor(() => expect(server.callsTo("PUT", "/api/settings/timeCreateNewTicket")).toHaveLength(1));
    expect(server.callsTo("PUT", "/api/settings/timeCreateNewTicket")[0].body).toEqual({ value: "300" });
    expect(await screen.findByText("Settings saved successfully.")).toBeInTheDocument();

    await user.click(screen.getByRole("combobox", { name: /Ignore group messages/ }));
    await user.click(await screen.findByRole("option", { name: "Enabled" }));
    await waitFor(() => expect(server.callsTo("PUT", "/api/settings/CheckMsgIsGroup")[0]?.body).toEqual({ value: "enabled" }));
  });

  it("validates a URL with the core rule before saving it", async () => {
    const { server, user } = await openSettings();
    const field = await screen.findByRole("textbox", { name: "Sales page URL" });
    await user.type(field, "not a url");
    await user.click(screen.getByRole("button", { name: "Save Sales page URL" }));
    expect(await screen.findByText("Invalid URL")).toBeInTheDocument();
    expect(server.callsTo("PUT", "/api/settings/salesPageUrl")).toHaveLength(0);

    await user.clear(field);
    await user.type(field, "https://example.com/buy");
    await user.click(screen.getByRole("button", { name: "Save Sales page URL" }));
    await waitFor(() =>
      expect(server.callsTo("PUT", "/api/settings/salesPageUrl")[0]?.body).toEqual({ value: "https://example.com/buy" }),
    );
  });

  it("shows the API token read-only and copies it", async () => {
    const { user } = await openSettings();
    const token = await screen.findByRole("textbox", { name: "API token" });
    expect(token).toHaveValue("tok-123");
    expect(token).toHaveAttribute("readonly");
    await user.click(screen.getByRole("button", { name: "Copy token" }));
    expect(await navigator.clipboard.readText()).toBe("tok-123");
    expect(await screen.findByText("Token copied!")).toBeInTheDocument();
  });
});

describe("rotating the API token", () => {
  it("asks first, then shows the new token from POST /settings/userApiToken/rotate", async () => {
    const { server, user } = await openSettings();
    server.set("POST /api/settings/userApiToken/rotate", { body: { key: "userApiToken", value: "tok-456" } });
    await user.click(await screen.findByRole("button", { name: "Generate a new token" }));
    const dialog = await screen.findByRole("dialog", { name: "Generate a new API token?" });
    expect(dialog).toHaveTextContent("The current token stops working at once");
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(server.callsTo("POST", "/api/settings/userApiToken/rotate")).toHaveLength(0);

    await user.click(screen.getByRole("button", { name: "Generate a new token" }));
    await user.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Ok" }));
    // The toast first: it closes itself 3 s after it opened, which a loaded machine can spend
    // before the token field's check below is done.
    expect(await screen.findByText("New API token generated.")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("textbox", { name: "API token" })).toHaveValue("tok-456"));
    expect(server.callsTo("POST", "/api/settings/userApiToken/rotate")).toHaveLength(1);
  });
});
