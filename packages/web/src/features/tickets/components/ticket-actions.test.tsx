import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aTicket } from "../../../testing/fixtures";
import { renderWithProviders } from "../../../testing/render";
import { TicketActions } from "./ticket-actions";

describe("the ticket actions folded into one menu (a narrow header)", () => {
  it("a labelled button opens a menu with every action of the status, and each works from there", async () => {
    const ticket = aTicket({ status: "open", userId: AGENT.id });
    const api = fakeApi({ "PUT /api/tickets/:id": (request) => ({ body: { ...ticket, ...(request.body as object) } }) });
    signedInAs(api, AGENT);
    await renderWithProviders(<TicketActions ticket={ticket} />);
    const user = userEvent.setup();

    // Shown by a container query, which jsdom does not evaluate (e2e/layout.spec.ts checks when it shows).
    const fold = await screen.findByLabelText("Ações do ticket");
    expect(fold.tagName).toBe("BUTTON");
    expect(fold).toHaveAttribute("aria-haspopup", "menu");
    await user.click(fold);
    const menu = await screen.findByRole("menu");
    // The status's main action stays a button beside the menu (issue 20 §2.7): not in the menu.
    expect(
      within(menu)
        .getAllByRole("menuitem")
        .map((item) => item.textContent),
    ).toEqual(["Retornar", "Protocolo", "Transferir", "Executar macro", "Exportar conversa (CSV)"]);
    await user.click(within(menu).getByRole("menuitem", { name: "Retornar" }));
    await waitFor(() => expect(api.callsTo("PUT", "/api/tickets/7")).toHaveLength(1));
    expect(api.callsTo("PUT", "/api/tickets/7")[0].body).toMatchObject({ status: "pending", userId: null });
    expect(screen.queryByRole("menu")).toBeNull();
  });

  it("keeps a waiting ticket's Accept a button beside the folded menu (issue 20 §2.7)", async () => {
    const ticket = aTicket({ status: "pending", userId: null });
    const api = fakeApi({ "PUT /api/tickets/:id": (request) => ({ body: { ...ticket, ...(request.body as object) } }) });
    signedInAs(api, AGENT);
    await renderWithProviders(<TicketActions ticket={ticket} />);
    const user = userEvent.setup();
    const fold = await screen.findByLabelText("Ações do ticket");
    const accept = within(fold.parentElement as HTMLElement).getByText("Aceitar");
    expect(accept.closest("button")).not.toBeNull();
    await user.click(fold);
    const menu = await screen.findByRole("menu");
    expect(within(menu).queryByRole("menuitem", { name: "Aceitar" })).toBeNull();
    await user.keyboard("{Escape}");
    await user.click(accept);
    await waitFor(() => expect(api.callsTo("PUT", "/api/tickets/7")).toHaveLength(1));
    expect(api.callsTo("PUT", "/api/tickets/7")[0].body).toMatchObject({ status: "open", userId: AGENT.id });
  });
});

describe("Resolve asks for a closing reason when the ticket's queue does (issue 23 §6)", () => {
  const queue = (closingReason: "off" | "required") => ({
    id: 3,
    name: "Vendas",
    color: "#123456",
    greetingMessage: "",
    schedule: null,
    closingReason,
    createdAt: "2026-01-01T10:00:00.000Z",
    updatedAt: "2026-01-01T10:00:00.000Z",
  });
  const reasons = {
    closingReasons: [
      { id: 4, name: "Venda", asksValue: false, archived: false, createdAt: "2026-01-01T10:00:00.000Z", updatedAt: "x" },
    ],
  };

  it("required: the picker opens and the resolve carries the chosen reason", async () => {
    const ticket = aTicket({ status: "open", userId: AGENT.id, queueId: 3 });
    const api = fakeApi({
      "GET /api/queue": { body: [queue("required")] },
      "GET /api/closing-reasons": { body: reasons },
      "PUT /api/tickets/:id": (request) => ({ body: { ...ticket, ...(request.body as object) } }),
    });
    signedInAs(api, AGENT);
    await renderWithProviders(<TicketActions ticket={ticket} />);
    const user = userEvent.setup();
    await waitFor(() => expect(api.callsTo("GET", "/api/queue")).toHaveLength(1));
    await user.click(await screen.findByRole("button", { name: "Resolver" }));
    const dialog = await screen.findByRole("dialog", { name: "Resolver: motivo de encerramento" });
    expect(api.callsTo("PUT", "/api/tickets/7")).toHaveLength(0);
    await user.click(within(dialog).getByRole("combobox", { name: /Motivo de encerramento/ }));
    await user.click(await screen.findByRole("option", { name: "Venda" }));
    await user.click(within(dialog).getByRole("button", { name: "Resolver" }));
    await waitFor(() => expect(api.callsTo("PUT", "/api/tickets/7")).toHaveLength(1));
    expect(api.callsTo("PUT", "/api/tickets/7")[0].body).toEqual({
      status: "closed",
      userId: AGENT.id,
      closingReasonId: 4,
      closingValue: null,
    });
  });

  it("off: Resolve closes at once, without a picker", async () => {
    const ticket = aTicket({ status: "open", userId: AGENT.id, queueId: 3 });
    const api = fakeApi({
      "GET /api/queue": { body: [queue("off")] },
      "PUT /api/tickets/:id": (request) => ({ body: { ...ticket, ...(request.body as object) } }),
    });
    signedInAs(api, AGENT);
    await renderWithProviders(<TicketActions ticket={ticket} />);
    const user = userEvent.setup();
    await waitFor(() => expect(api.callsTo("GET", "/api/queue")).toHaveLength(1));
    await user.click(await screen.findByRole("button", { name: "Resolver" }));
    await waitFor(() => expect(api.callsTo("PUT", "/api/tickets/7")).toHaveLength(1));
    expect(api.callsTo("PUT", "/api/tickets/7")[0].body).toEqual({ status: "closed", userId: AGENT.id });
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});
