import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { SERVICE_WINDOW_MS, type Template, type Ticket } from "@zapdesk/core";
import { beforeEach, describe, expect, it, vi } from "vitest";
import i18n from "../../../lib/i18n";
import { emitTyping } from "../../../lib/socket";
import { ADMIN, AGENT, type FakeRequest, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aMessage } from "../../../testing/fixtures";
import { fill } from "../../../testing/messages";
import { renderWithProviders } from "../../../testing/render";
import { MessageInput } from "./message-input";

vi.mock("../../../lib/socket", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../../lib/socket")>()),
  emitTyping: vi.fn(),
}));

const CLOUD = { id: 8, name: "Official", provider: "cloud" as const };
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

function template(over: Partial<Template>): Template {
  return {
    id: 1,
    name: "order_update",
    language: "pt_BR",
    category: "UTILITY",
    status: "APPROVED",
    components: [
      { type: "HEADER", format: "TEXT", text: "Pedido {{1}}" },
      { type: "BODY", text: "Olá {{1}}, seu pedido está {{2}}." },
      { type: "FOOTER", text: "Loja Zap" },
    ],
    bodyVariables: 2,
    headerVariables: 1,
    bodyText: "Olá {{1}}, seu pedido está {{2}}.",
    syncedAt: "2026-03-04T09:30:00.000Z",
    ...over,
  };
}

async function setup(ticket: Partial<Ticket>, routes = {}, who = AGENT) {
  const api = fakeApi({
    "POST /api/messages/:ticketId": { status: 201, body: aMessage({ fromMe: true }) },
    ...routes,
  });
  signedInAs(api, who);
  await renderWithProviders(
    <MessageInput
      ticket={{ id: 7, status: "open", whatsapp: CLOUD, lastInboundAt: null, ...ticket }}
      replyTo={null}
      onCancelReply={() => {}}
    />,
  );
  return api;
}

describe("the 24-hour window on Cloud API tickets", () => {
  beforeEach(async () => {
    await i18n.changeLanguage("en");
    localStorage.setItem("signOption", "false");
  });

  it("shows how long free-form replies stay possible, and lets the agent write", async () => {
    await setup({ lastInboundAt: ago(60 * 60 * 1000 - 30_000) });
    expect(await screen.findByRole("status")).toHaveTextContent("Free-form replies for 23 h 00 min more");
    expect(screen.getByRole("textbox", { name: /Type a message/ })).toBeInTheDocument();
  });

  it("switches to templates when the window closes while the ticket is open", async () => {
    // The page's clock stands still until the test moves it past the window's end: on a busy
    // machine, a real second would pass before the first look at the open window.
    vi.useFakeTimers({ toFake: ["Date"] });
    await setup({ lastInboundAt: ago(SERVICE_WINDOW_MS - 1000) });
    expect(await screen.findByRole("textbox", { name: /Type a message/ })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("less than a minute");
    vi.setSystemTime(Date.now() + 2000);
    expect(await screen.findByRole("button", { name: "Send a template" })).toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: /Type a message/ })).toBeNull();
  });

  it("once closed offers only approved templates: pick with its language, refresh (admin), fill variables, preview, send", async () => {
    let templates = [
      template({
        id: 2,
        name: "welcome",
        language: "en_US",
        bodyVariables: 0,
        headerVariables: 0,
        bodyText: "Hi!",
        components: [],
      }),
    ];
    const api = await setup(
      { lastInboundAt: ago(SERVICE_WINDOW_MS + 60_000) },
      {
        "GET /api/whatsapp/:id/templates": () => ({ body: { templates, syncedAt: "2026-03-04T09:30:00.000Z" } }),
        "POST /api/whatsapp/:id/templates/sync": () => {
          templates = [...templates, template({})];
          return { body: { templates, syncedAt: "2026-03-04T10:00:00.000Z" } };
        },
        "POST /api/messages/:ticketId/template": (request: FakeRequest) => ({
          status: 201,
          body: aMessage({ id: 99, fromMe: true, body: String((request.body as { name: string }).name) }),
        }),
      },
      ADMIN,
    );
    const user = userEvent.setup();
    expect(await screen.findByText(/The 24-hour window with this customer is closed/)).toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: /Type a message/ })).toBeNull();

    await user.click(screen.getByRole("button", { name: "Send a template" }));
    const dialog = await screen.findByRole("dialog", { name: "Send an approved template" });
    const list = await within(dialog).findByRole("list", { name: "Approved templates" });
    expect(
      within(list)
        .getAllByRole("button")
        .map((b) => b.getAttribute("aria-label")),
    ).toEqual(["welcome (en_US)"]);

    await user.click(within(dialog).getByRole("button", { name: "Refresh templates" }));
    await waitFor(() => expect(api.callsTo("POST", "/api/whatsapp/8/templates/sync")).toHaveLength(1));
    await user.click(await within(dialog).findByRole("button", { name: "order_update (pt_BR)" }));

    await user.click(within(dialog).getByRole("button", { name: "Send" }));
    expect(await within(dialog).findAllByText("Required")).toHaveLength(3);
    expect(api.callsTo("POST", "/api/messages/7/template")).toHaveLength(0);

    await fill(user, within(dialog).getByLabelText("Header {{1}}"), "#123");
    await fill(user, within(dialog).getByLabelText("Variable {{1}}"), "Maria");
    const preview = within(dialog).getByRole("region", { name: "Preview" });
    expect(preview).toHaveTextContent("Pedido #123");
    expect(preview).toHaveTextContent("Olá Maria, seu pedido está {{2}}.");
    expect(preview).toHaveTextContent("Loja Zap");
    await fill(user, within(dialog).getByLabelText("Variable {{2}}"), "a caminho");
    expect(preview).toHaveTextContent("Olá Maria, seu pedido está a caminho.");

    await user.click(within(dialog).getByRole("button", { name: "Send" }));
    await waitFor(() => expect(api.callsTo("POST", "/api/messages/7/template")).toHaveLength(1));
    expect(api.callsTo("POST", "/api/messages/7/template")[0].body).toEqual({
      name: "order_update",
      language: "pt_BR",
      bodyParams: ["Maria", "a caminho"],
      headerParams: ["#123"],
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("when the server says the window is closed (its clock decides), the composer turns to templates", async () => {
    const api = await setup(
      { lastInboundAt: ago(SERVICE_WINDOW_MS - 10 * 60_000) },
      { "POST /api/messages/:ticketId": { status: 409, body: { error: "ERR_WAPP_WINDOW_CLOSED" } } },
    );
    const user = userEvent.setup();
    await user.type(await screen.findByRole("textbox", { name: /Type a message/ }), "Still there?{Enter}");
    await waitFor(() => expect(api.callsTo("POST", "/api/messages/7")).toHaveLength(1));
    expect(await screen.findByRole("button", { name: "Send a template" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent(
      "The 24-hour window with this customer is closed: send an approved template instead.",
    );
  });

  it("a conversation we start on a Cloud connection (no customer message yet) goes through a template", async () => {
    await setup({ lastInboundAt: null }, { "GET /api/whatsapp/:id/templates": { body: { templates: [], syncedAt: null } } });
    await userEvent.setup().click(await screen.findByRole("button", { name: "Send a template" }));
    expect(await screen.findByText("No approved templates. Ask an administrator to refresh them from Meta.")).toBeInTheDocument();
    expect(screen.getByText("Not synced yet")).toBeInTheDocument();
    // Refreshing from Meta is connection management: an agent is not offered it.
    expect(screen.queryByRole("button", { name: "Refresh templates" })).toBeNull();
  });
});

describe("typing is shown to the customer where the connection can", () => {
  beforeEach(async () => {
    await i18n.changeLanguage("en");
    localStorage.setItem("signOption", "false");
    vi.mocked(emitTyping).mockClear();
  });

  it("a QR connection: composing while typing, paused on send", async () => {
    const api = await setup({ whatsapp: { id: 1, name: "Main", provider: "baileys" } });
    const user = userEvent.setup();
    const input = await screen.findByRole("textbox", { name: /Type a message/ });
    await user.type(input, "Hello");
    expect(vi.mocked(emitTyping).mock.calls).toEqual([[7, "composing"]]);
    await user.keyboard("{Enter}");
    await waitFor(() => expect(api.callsTo("POST", "/api/messages/7")).toHaveLength(1));
    expect(vi.mocked(emitTyping)).toHaveBeenLastCalledWith(7, "paused");
  });

  it("the Cloud API cannot: nothing is emitted", async () => {
    await setup({ lastInboundAt: ago(60_000) });
    const user = userEvent.setup();
    await user.type(await screen.findByRole("textbox", { name: /Type a message/ }), "Hello");
    await user.tab();
    expect(emitTyping).not.toHaveBeenCalled();
  });
});
