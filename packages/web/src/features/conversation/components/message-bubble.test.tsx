import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Message } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aMessage } from "../../../testing/fixtures";
import { renderWithProviders } from "../../../testing/render";
import { messagesToCsv } from "../utils/export-csv";
import { MessageBubble } from "./message-bubble";

const base: Message = aMessage({ ticketId: 3 });

async function show(message: Partial<Message>) {
  const api = fakeApi({
    "POST /api/contact": { body: { id: 77, name: "Bob Smith", number: "5511988887777" } },
    "POST /api/tickets": { body: { id: 501 } },
  });
  signedInAs(api, AGENT);
  const view = await renderWithProviders(<MessageBubble message={{ ...base, ...message }} isGroup={false} onMenu={() => {}} />);
  return { api, unmount: view.unmount };
}

describe("message bubbles", () => {
  it("says which automation sent an automatic message: a queue's bot, the menu, a rule or Zapdesk", async () => {
    const cases: [Partial<Message>, string | null][] = [
      [{ fromMe: true, fromBot: true, automation: "bot" }, "Robô"],
      [{ fromMe: true, fromBot: true, automation: "menu" }, "Menu"],
      [{ fromMe: true, fromBot: true, automation: "rule" }, "Regra"],
      [{ fromMe: true, fromBot: true, automation: "system" }, "Automática"],
      [{ fromMe: true, fromBot: false, automation: null }, null],
      [{ fromMe: false, fromBot: false, automation: null }, null],
    ];
    for (const [message, label] of cases) {
      const view = await show({ body: "Olá", ...message });
      if (label) expect(screen.getByTestId("automation")).toHaveTextContent(label);
      else expect(screen.queryByTestId("automation")).toBeNull();
      view.unmount();
    }
  });

  it("shows a location as map image, link and description, never the raw body", async () => {
    const image = "data:image/jpeg;base64,AAAA";
    await show({ mediaType: "location", body: `${image}|https://maps.google.com/maps?q=1%2C2|Office` });
    expect(screen.getByRole("img", { name: "Mapa" })).toHaveAttribute("src", image);
    expect(screen.getByRole("link", { name: "Abrir no mapa" })).toHaveAttribute("target", "_blank");
    expect(screen.getByText("Office")).toBeVisible();
    expect(screen.queryByText(/maps\.google/)).toBeNull();
  });

  it("refuses unsafe parts of a location body", async () => {
    await show({ mediaType: "location", body: "javascript:alert(1)|javascript:alert(2)|Somewhere" });
    expect(screen.queryByRole("img")).toBeNull();
    expect(screen.queryByRole("link")).toBeNull();
    expect(screen.getByText("Somewhere")).toBeVisible();
  });

  it("shows a vCard's name and number; 'talk' resolves the contact and opens a ticket with it", async () => {
    const vcard = "BEGIN:VCARD\nVERSION:3.0\nFN:Bob Smith\nTEL;type=CELL;waid=5511988887777:+55 11 98888-7777\nEND:VCARD";
    const { api } = await show({ mediaType: "vcard", body: vcard });
    expect(screen.getByText("Bob Smith")).toBeVisible();
    expect(screen.getByText("5511988887777")).toBeVisible();
    expect(screen.queryByText(/BEGIN:VCARD/)).toBeNull();
    await waitFor(() => expect(api.callsTo("POST", "/api/auth/refresh_token").length).toBeGreaterThan(0));
    await userEvent.setup().click(await screen.findByRole("button", { name: "Conversar" }));
    await waitFor(() => expect(api.callsTo("POST", "/api/tickets")).toHaveLength(1));
    expect(api.callsTo("POST", "/api/contact")[0].body).toEqual({ name: "Bob Smith", number: "5511988887777" });
    expect(api.callsTo("POST", "/api/tickets")[0].body).toEqual({ contactId: 77, userId: AGENT.id, status: "open" });
  });

  it("shows deleted messages as deleted, quoted replies above the text, and the ack of own messages", async () => {
    await show({
      fromMe: true,
      ack: 2,
      body: "see *this*",
      quotedMsg: { id: 9, body: "the question", fromMe: false, mediaType: "chat", isDeleted: false, contact: null },
    });
    expect(screen.getByTestId("quoted-message")).toHaveTextContent("the question");
    expect(screen.getByRole("img", { name: "Entregue" })).toBeInTheDocument();
    expect(screen.getByText("this").tagName).toBe("STRONG");
  });

  it("hides the text of a deleted message", async () => {
    await show({ isDeleted: true, body: "secret" });
    expect(screen.getByText("Esta mensagem foi apagada")).toBeVisible();
    expect(screen.queryByText("secret")).toBeNull();
  });
});

describe("EXPORTAR CONVERSAS", () => {
  it("writes the spec's columns, quoting every cell and defusing formulas", () => {
    const csv = messagesToCsv([
      { ...base, body: 'He said "hi", then left' },
      {
        ...base,
        id: 11,
        fromMe: true,
        body: "=HYPERLINK(1)",
        mediaType: "image",
        mediaUrl: "/api/messages/11/media",
        isDeleted: true,
      },
    ]);
    const [header, first, second] = csv.split("\r\n");
    expect(header).toBe("body,id,fromMe,quoted,isDel,mediaUrl,type,created");
    expect(first).toBe('"He said ""hi"", then left","10","false","","false","","chat","2026-03-04T12:34:00.000Z"');
    expect(second).toBe(`"'=HYPERLINK(1)","11","true","","true","/api/messages/11/media","image","2026-03-04T12:34:00.000Z"`);
  });
});
