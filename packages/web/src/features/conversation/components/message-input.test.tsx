import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { MessageInput } from "./message-input";

const stored = (body: string) => ({ id: 99, ticketId: 7, body, fromMe: true, ack: 0, createdAt: new Date().toISOString() });

function setup(status: "open" | "pending" | "closed" = "open") {
  const api = fakeApi({
    "POST /api/messages/:ticketId": (request) => ({ status: 201, body: stored((request.body as { body: string }).body) }),
    "GET /api/quickAnswers": (request) => ({
      body: {
        quickAnswers: [{ id: 1, shortcut: "hello", message: "Hello! How can I help you today?" }].filter((q) =>
          q.shortcut.includes(request.query.get("searchParam") ?? ""),
        ),
        count: 1,
        hasMore: false,
      },
    }),
  });
  signedInAs(api, AGENT);
  renderWithProviders(<MessageInput ticket={{ id: 7, status }} replyTo={null} onCancelReply={() => {}} />);
  return api;
}

const sends = (api: ReturnType<typeof fakeApi>) => api.callsTo("POST", "/api/messages/7");

describe("the composer keys (spec §5)", () => {
  beforeEach(() => localStorage.clear());

  it("Enter sends the trimmed text, signed with the user's name in bold by default", async () => {
    const api = setup();
    const user = userEvent.setup();
    const input = await screen.findByRole("textbox", { name: /mensagem/i });
    await waitFor(() => expect(api.callsTo("POST", "/api/auth/refresh_token").length).toBeGreaterThan(0));
    await user.type(input, "  Good morning  {Enter}");
    await waitFor(() => expect(sends(api)).toHaveLength(1));
    expect(sends(api)[0].body).toEqual({ body: "*Agent Smith*:\nGood morning" });
    await waitFor(() => expect(input).toHaveValue(""));
  });

  it("Shift+Enter adds a line instead of sending; the Sign switch off sends the text alone", async () => {
    const api = setup();
    const user = userEvent.setup();
    const input = await screen.findByRole("textbox", { name: /mensagem/i });
    await user.click(screen.getByRole("switch", { name: "Assinar" }));
    expect(localStorage.getItem("signOption")).toBe("false");
    await user.type(input, "line one{Shift>}{Enter}{/Shift}line two");
    expect(input).toHaveValue("line one\nline two");
    expect(sends(api)).toHaveLength(0);
    await user.keyboard("{Enter}");
    await waitFor(() => expect(sends(api)).toHaveLength(1));
    expect(sends(api)[0].body).toEqual({ body: "line one\nline two" });
  });

  it("does not send empty or whitespace-only text", async () => {
    const api = setup();
    const user = userEvent.setup();
    const input = await screen.findByRole("textbox", { name: /mensagem/i });
    await user.type(input, "{Enter}");
    await user.type(input, "   {Shift>}{Enter}{/Shift}  {Enter}");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sends(api)).toHaveLength(0);
  });

  it("'/' lists quick answers as 'shortcut - message' and picking one fills the input", async () => {
    const api = setup();
    const user = userEvent.setup();
    const input = await screen.findByRole("textbox", { name: /mensagem/i });
    await user.type(input, "/hel");
    const option = await screen.findByRole("option", { name: "hello - Hello! How can I help you today?" });
    expect(api.calls.some((c) => c.path === "/api/quickAnswers" && c.query.get("searchParam") === "hel")).toBe(true);
    await user.click(option);
    expect(input).toHaveValue("Hello! How can I help you today?");
    expect(screen.queryByRole("option")).toBeNull();
    expect(sends(api)).toHaveLength(0);
  });

  it("a ticket that is not open takes no message and says why", async () => {
    setup("pending");
    expect(await screen.findByText("Reabra ou aceite esse ticket para enviar uma mensagem.")).toBeInTheDocument();
    expect(screen.queryByRole("textbox")).toBeNull();
  });
});
