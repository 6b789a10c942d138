import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Ticket } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import { ADMIN, type FakeRequest, fakeApi, signedInAs } from "../../testing/fake-api";
import { laidOutElements } from "../../testing/layout";
import { renderWithProviders } from "../../testing/render";
import { TicketsManager } from "../tickets";
import { KeyboardShortcuts } from "./keyboard-shortcuts";
import { Location, ME, makeTicket, waiting } from "./test-fixtures";

async function setup(byStatus: (request: FakeRequest) => Ticket[], me = ME, routes = {}) {
  const api = fakeApi({
    "GET /api/tickets": (request) => {
      const tickets = byStatus(request);
      return { body: { tickets, count: tickets.length, hasMore: false } };
    },
    "PUT /api/tickets/:id": (request) => ({ body: makeTicket(Number(request.params.id), request.body as Partial<Ticket>) }),
    ...routes,
  });
  signedInAs(api, me);
  await renderWithProviders(
    <>
      <button type="button">elsewhere</button>
      <TicketsManager />
      <KeyboardShortcuts />
      <Location />
    </>,
  );
  return api;
}

// (hidden: a closing dialog still hides the page from the accessibility tree for a moment)
const location = () => screen.getByRole("status", { name: "location", hidden: true });

describe("keyboard-first tickets (issue 13 item 4)", () => {
  laidOutElements();

  it("moves through the list with j/k and opens the focused ticket with Enter", async () => {
    await setup((r) => (r.query.get("status") === "open" ? [makeTicket(1), makeTicket(2), makeTicket(3)] : []));
    const user = userEvent.setup();
    const list = await screen.findByRole("list", { name: "Atendendo" });
    await within(list).findByRole("button", { name: "Customer 1" });
    await user.keyboard("j");
    expect(within(list).getByRole("button", { name: "Customer 1" })).toHaveFocus();
    await user.keyboard("jj");
    expect(within(list).getByRole("button", { name: "Customer 3" })).toHaveFocus();
    await user.keyboard("j");
    expect(within(list).getByRole("button", { name: "Customer 3" })).toHaveFocus();
    await user.keyboard("k");
    expect(within(list).getByRole("button", { name: "Customer 2" })).toHaveFocus();
    await user.keyboard("{Enter}");
    expect(location()).toHaveTextContent(/^\/tickets\/2$/);
  });

  it("opens and accepts a waiting row from the keyboard; Accept switches the list to Working on", async () => {
    const api = await setup((r) => (r.query.get("status") === "pending" ? [waiting(7), waiting(8)] : []));
    const user = userEvent.setup();
    await user.click(await screen.findByRole("tab", { name: /Aguardando/ }));
    const list = screen.getByRole("list", { name: "Aguardando" });
    await within(list).findByRole("listitem", { name: "Customer 8" });
    await user.keyboard("jj");
    expect(document.activeElement).toBe(list.querySelector('[data-ticket-id="8"]'));
    await user.keyboard("{Enter}");
    expect(location()).toHaveTextContent(/^\/tickets\/8$/);
    await user.keyboard("a");
    await waitFor(() => expect(api.callsTo("PUT", "/api/tickets/8")).toHaveLength(1));
    expect(api.callsTo("PUT", "/api/tickets/8")[0].body).toEqual({ status: "open", userId: ME.id });
    await waitFor(() => expect(screen.getByRole("tab", { name: /Atendendo/ })).toHaveAttribute("aria-selected", "true"));
    expect(location()).toHaveTextContent(/^\/tickets\/8$/);
  });

  it("does not act on keys typed into the search; `/` opens the search", async () => {
    const api = await setup((r) => (r.query.get("status") === "pending" ? [waiting(7)] : [makeTicket(1)]));
    const user = userEvent.setup();
    await screen.findByRole("button", { name: "Customer 1" });
    await user.keyboard("/");
    const field = await screen.findByRole("searchbox", { name: "Pesquisar tickets e mensagens" });
    await waitFor(() => expect(field).toHaveFocus());
    await user.keyboard("jak?e");
    expect(field).toHaveValue("jak?e");
    expect(api.callsTo("PUT", "/api/tickets/7")).toHaveLength(0);
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(location()).toHaveTextContent(/^\/$/);
  });

  it("shows every shortcut, translated, on `?`; Esc closes it and the focus returns", async () => {
    await setup(() => []);
    const user = userEvent.setup();
    const before = screen.getByRole("button", { name: "elsewhere" });
    before.focus();
    await user.keyboard("?");
    const overlay = await screen.findByRole("dialog", { name: "Atalhos de teclado" });
    for (const text of ["Próximo ticket da lista", "Aceitar o ticket (aguardando)", "Resolver o ticket", "Transferir o ticket"]) {
      expect(within(overlay).getByText(text)).toBeVisible();
    }
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(before).toHaveFocus();
  });
});

describe("the command palette", () => {
  it("filters the screens the user may see and goes to the chosen one", async () => {
    await setup(() => []);
    const user = userEvent.setup();
    await user.keyboard("{Control>}k{/Control}");
    const dialog = await screen.findByRole("dialog", { name: "Ir para" });
    const input = within(dialog).getByRole("combobox", { name: "Ir para um ticket, contato ou tela…" });
    expect(input).toHaveFocus();
    // An agent is not shown the administration screens (the drawer's permission).
    await user.type(input, "usu");
    expect(within(dialog).queryByRole("option", { name: /Usuários/ })).toBeNull();
    await user.clear(input);
    await user.type(input, "conta");
    const listbox = within(dialog).getByRole("listbox");
    const options = within(listbox).getAllByRole("option");
    expect(options.map((o) => o.textContent)).toEqual([expect.stringContaining("Contatos")]);
    expect(input).toHaveAttribute("aria-activedescendant", options[0].id);
    expect(options[0]).toHaveAttribute("aria-selected", "true");
    await user.keyboard("{Enter}");
    expect(location()).toHaveTextContent(/^\/contacts$/);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("finds tickets and contacts through the search APIs and jumps to a ticket with the arrows", async () => {
    const maria = makeTicket(41, { contact: { id: 9, name: "Maria Souza", number: "5511999", profilePicUrl: "" } });
    const api = await setup(
      (r) => (r.query.get("searchParam") === "maria" ? [maria] : []),
      { ...ADMIN, queues: [] },
      {
        "GET /api/contacts": {
          body: { contacts: [{ ...maria.contact, email: "", isGroup: false, extraInfo: [] }], count: 1, hasMore: false },
        },
      },
    );
    const user = userEvent.setup();
    await user.keyboard("{Meta>}k{/Meta}");
    const dialog = await screen.findByRole("dialog", { name: "Ir para" });
    await user.type(within(dialog).getByRole("combobox"), "Maria");
    const ticket = await within(dialog).findByRole("option", { name: /Ticket #41/ }, { timeout: 2000 });
    expect(within(dialog).getByRole("option", { name: /Contato · 5511999/ })).toBeInTheDocument();
    expect(api.callsTo("GET", "/api/tickets").some((c) => c.query.get("searchParam") === "maria")).toBe(true);
    expect(ticket).toHaveAttribute("aria-selected", "true");
    await user.keyboard("{ArrowDown}{ArrowUp}{Enter}");
    expect(location()).toHaveTextContent(/^\/tickets\/41$/);
  });

  it("ranks a screen the words name above the tickets they match (issue 20 §2.6)", async () => {
    const ticket = makeTicket(52, { contact: { id: 7, name: "Paulo Lima", number: "5511777", profilePicUrl: "" } });
    await setup(
      (r) => (r.query.get("searchParam") ? [ticket] : []),
      { ...ADMIN, queues: [] },
      { "GET /api/contacts": { body: { contacts: [], count: 0, hasMore: false } } },
    );
    const user = userEvent.setup();
    await user.keyboard("{Control>}k{/Control}");
    const dialog = await screen.findByRole("dialog", { name: "Ir para" });
    const input = within(dialog).getByRole("combobox");
    await user.type(input, "conex");
    await within(dialog).findByRole("option", { name: /Ticket #52/ }, { timeout: 2000 });
    const names = within(dialog)
      .getAllByRole("option")
      .map((o) => o.textContent);
    expect(names).toEqual([expect.stringContaining("Conexões"), expect.stringContaining("Ticket #52")]);
    await user.keyboard("{Enter}");
    expect(location()).toHaveTextContent(/^\/connections$/);

    // Words that name no screen: the tickets come first.
    await user.keyboard("{Control>}k{/Control}");
    const again = await screen.findByRole("dialog", { name: "Ir para" });
    await user.type(within(again).getByRole("combobox"), "paulo");
    await within(again).findByRole("option", { name: /Ticket #52/ }, { timeout: 2000 });
    expect(within(again).getAllByRole("option")[0]).toHaveTextContent("Ticket #52");
  });
});
