import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { DEBOUNCE_MS, type Message } from "@zapdesk/core";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { MessageInput } from "./message-input";

const stored = (body: string) => ({ id: 99, ticketId: 7, body, fromMe: true, ack: 0, createdAt: new Date().toISOString() });

async function setup(status: "open" | "pending" | "closed" = "open", replyTo: Message | null = null, onCancelReply = () => {}) {
  const api = fakeApi({
    "POST /api/messages/:ticketId": (request) => ({
      status: 201,
      body: stored((request.body as { body?: string } | undefined)?.body ?? ""),
    }),
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
  await renderWithProviders(<MessageInput ticket={{ id: 7, status }} replyTo={replyTo} onCancelReply={onCancelReply} />);
  return api;
}

const sends = (api: ReturnType<typeof fakeApi>) => api.callsTo("POST", "/api/messages/7");

describe("the composer keys (spec §5)", () => {
  beforeEach(() => localStorage.clear());

  it("Enter sends the trimmed text, signed with the user's name in bold by default", async () => {
    const api = await setup();
    const user = userEvent.setup();
    const input = await screen.findByRole("textbox", { name: /mensagem/i });
    await waitFor(() => expect(api.callsTo("POST", "/api/auth/refresh_token").length).toBeGreaterThan(0));
    await user.type(input, "  Good morning  {Enter}");
    await waitFor(() => expect(sends(api)).toHaveLength(1));
    expect(sends(api)[0].body).toEqual({ body: "*Agent Smith*:\nGood morning" });
    await waitFor(() => expect(input).toHaveValue(""));
  });

  it("Shift+Enter adds a line instead of sending; the Sign switch off sends the text alone", async () => {
    const api = await setup();
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
    const api = await setup();
    const user = userEvent.setup();
    const input = await screen.findByRole("textbox", { name: /mensagem/i });
    await user.type(input, "{Enter}");
    await user.type(input, "   {Shift>}{Enter}{/Shift}  {Enter}");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sends(api)).toHaveLength(0);
  });

  it("'/' lists quick answers as 'shortcut - message' and picking one fills the input", async () => {
    const api = await setup();
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

  it("looks quick answers up once per pause in typing, not once per keystroke", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const api = await setup();
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      const input = await screen.findByRole("textbox", { name: /mensagem/i });
      const lookups = () => api.callsTo("GET", "/api/quickAnswers").map((c) => c.query.get("searchParam"));
      await user.type(input, "/hello");
      expect(lookups()).toEqual([]);
      await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
      expect(await screen.findByRole("option", { name: /^hello - / })).toBeInTheDocument();
      expect(lookups()).toEqual(["hello"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a ticket that is not open takes no message and says why", async () => {
    await setup("pending");
    expect(await screen.findByText("Reabra ou aceite esse ticket para enviar uma mensagem.")).toBeInTheDocument();
    expect(screen.queryByRole("textbox")).toBeNull();
  });

  it("a reply shows its preview with cancel and goes out quoting the message", async () => {
    const onCancel = vi.fn();
    const quoted = { id: 41, body: "Where is my order?", isDeleted: false } as Message;
    const api = await setup("open", quoted, onCancel);
    const user = userEvent.setup();
    const preview = await screen.findByLabelText("Respondendo");
    expect(preview).toHaveTextContent("Where is my order?");
    await user.click(screen.getByRole("switch", { name: "Assinar" }));
    await user.type(screen.getByRole("textbox", { name: /mensagem/i }), "On its way{Enter}");
    await waitFor(() => expect(sends(api)).toHaveLength(1));
    expect(sends(api)[0].body).toEqual({ body: "On its way", quotedMsg: { id: 41 } });
    await waitFor(() => expect(onCancel).toHaveBeenCalled());
    onCancel.mockClear();
    await user.click(screen.getByRole("button", { name: "Cancelar resposta" }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it("a dropped file is previewed, can be removed, and goes out as multipart `medias`", async () => {
    await setup();
    const user = userEvent.setup();
    const composer = await screen.findByTestId("composer");
    const file = new File(["%PDF-1.4"], "invoice.pdf", { type: "application/pdf" });
    const other = new File(["x"], "notes.txt", { type: "text/plain" });
    fireEvent.drop(composer, { dataTransfer: { files: [file, other] } });
    expect(await screen.findByText("invoice.pdf")).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Remover notes.txt" }));
    expect(screen.queryByText("notes.txt")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Enviar" }));
    const fetchMock = vi.mocked(globalThis.fetch);
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url) === "/api/messages/7")).toBe(true));
    const [, init] = fetchMock.mock.calls.find(([url]) => String(url) === "/api/messages/7")!;
    const form = init?.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect((form.getAll("medias") as File[]).map((f) => f.name)).toEqual(["invoice.pdf"]);
    expect(form.get("body")).toBe("");
    await waitFor(() => expect(screen.queryByText("invoice.pdf")).toBeNull());
  });
});
