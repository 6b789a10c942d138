import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { formatHourMinute } from "../../../lib/format-time";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aMessage } from "../../../testing/fixtures";
import { renderWithProviders } from "../../../testing/render";
import { messagesToCsv } from "../utils/export-csv";
import { splitMentions } from "../utils/mentions";
import { Composer } from "./composer";
import { NoteBubble } from "./note-bubble";

async function setup(status: "open" | "pending" | "closed" = "open") {
  const api = fakeApi({
    "POST /api/messages/:ticketId": (request) => ({
      status: 201,
      body: aMessage({ id: 99, fromMe: true, isNote: true, body: (request.body as { body: string }).body }),
    }),
    "GET /api/notes/:ticketId/mentionable": (request) => ({
      body: {
        users: [
          { id: 5, name: "Bruno Costa" },
          { id: 6, name: "Carla Dias" },
        ].filter((u) => u.name.toLowerCase().includes((request.query.get("searchParam") ?? "").toLowerCase())),
      },
    }),
    "GET /api/quickAnswers": { body: { quickAnswers: [], count: 0, hasMore: false } },
  });
  signedInAs(api, AGENT);
  await renderWithProviders(<Composer ticket={{ id: 7, status }} replyTo={null} onCancelReply={() => {}} />);
  return api;
}

describe("the Reply / Private note composer (issue 11)", () => {
  it("starts on Reply; the note tab looks different and posts a note with the picked @mention", async () => {
    const api = await setup();
    const user = userEvent.setup();
    expect(await screen.findByRole("tab", { name: "Responder" })).toHaveAttribute("aria-selected", "true");
    expect(screen.queryByTestId("note-composer")).toBeNull();

    await user.click(screen.getByRole("tab", { name: "Nota privada" }));
    const composer = screen.getByTestId("note-composer");
    expect(within(composer).getByText(/só a equipe vê, o cliente não recebe/)).toBeVisible();
    expect(composer).toHaveStyle({ backgroundColor: "#fff4cc" });

    const input = within(composer).getByRole("textbox", { name: /Escreva uma nota/ });
    await user.type(input, "Please check @bru");
    await waitFor(() => expect(screen.queryByRole("option", { name: "@Carla Dias" })).toBeNull());
    await user.click(await screen.findByRole("option", { name: "@Bruno Costa" }));
    expect(input).toHaveValue("Please check @Bruno Costa ");
    await user.type(input, "the refund{Enter}");

    await waitFor(() => expect(api.callsTo("POST", "/api/messages/7")).toHaveLength(1));
    expect(api.callsTo("POST", "/api/messages/7")[0].body).toEqual({
      body: "Please check @Bruno Costa the refund",
      isNote: true,
      mentions: [5],
    });
    await waitFor(() => expect(input).toHaveValue(""));
  });

  it("drops a mention whose name was erased, and picks with the keyboard", async () => {
    const api = await setup();
    const user = userEvent.setup();
    await user.click(await screen.findByRole("tab", { name: "Nota privada" }));
    const input = screen.getByRole("textbox", { name: /Escreva uma nota/ });
    await user.type(input, "@car");
    await waitFor(() => expect(screen.queryByRole("option", { name: "@Bruno Costa" })).toBeNull());
    expect(screen.getByRole("option", { name: "@Carla Dias" })).toHaveAttribute("aria-selected", "true");
    await user.keyboard("{Enter}");
    expect(input).toHaveValue("@Carla Dias ");
    await user.clear(input);
    await user.type(input, "no one here{Enter}");
    await waitFor(() => expect(api.callsTo("POST", "/api/messages/7")).toHaveLength(1));
    expect(api.callsTo("POST", "/api/messages/7")[0].body).toMatchObject({ isNote: true, mentions: [] });
  });

  it("lets a note be written on a closed ticket, where a reply cannot", async () => {
    await setup("closed");
    const user = userEvent.setup();
    expect(await screen.findByText(/Reabra ou aceite|resolvido|fechado/i)).toBeVisible();
    await user.click(screen.getByRole("tab", { name: "Nota privada" }));
    expect(screen.getByRole("textbox", { name: /Escreva uma nota/ })).toBeEnabled();
  });
});

describe("the note bubble", () => {
  it("shows a private note with its label, author, time and highlighted mentions", async () => {
    const api = fakeApi({});
    signedInAs(api, AGENT);
    await renderWithProviders(
      <NoteBubble
        message={aMessage({
          isNote: true,
          fromMe: true,
          body: "Ask @Bruno Costa about it",
          user: { id: 3, name: "Ana" },
          mentions: [{ id: 5, name: "Bruno Costa" }],
        })}
      />,
    );
    const bubble = screen.getByRole("article", { name: "Nota privada de Ana" });
    expect(within(bubble).getByText("Nota privada")).toBeVisible();
    expect(within(bubble).getByTestId("note-mention")).toHaveTextContent("@Bruno Costa");
    expect(within(bubble).getByText(formatHourMinute(new Date("2026-03-04T12:34:00.000Z")))).toBeVisible();
    expect(bubble).toHaveStyle({ backgroundColor: "#fff4cc" });
  });

  it("splits the mentioned colleagues' full names out of the text, and nothing else", () => {
    expect(splitMentions("hi @Ana Lima, @Ana and @bob x.", ["Ana", "Ana Lima", "bob x"]).map((p) => [p.text, p.mention])).toEqual(
      [
        ["hi ", false],
        ["@Ana Lima", true],
        [", ", false],
        ["@Ana", true],
        [" and ", false],
        ["@bob x", true],
        [".", false],
      ],
    );
    expect(splitMentions("mail me @ home (a+b)", ["a+b"]).map((p) => p.mention)).toEqual([false]);
  });
});

describe("EXPORTAR CONVERSAS with notes", () => {
  it("marks a note as such in the type column", () => {
    const csv = messagesToCsv([aMessage({ id: 1 }), aMessage({ id: 2, isNote: true, fromMe: true, body: "internal" })]);
    const [, customer, note] = csv.split("\r\n");
    expect(customer).toContain('"chat"');
    expect(note).toBe('"internal","2","true","","false","","note","2026-03-04T12:34:00.000Z"');
  });
});
