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
    renderWithProviders(<TicketActions ticket={ticket} />);
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
    ).toEqual(["Retornar", "Protocolo", "Transferir", "Exportar conversa (CSV)"]);
    await user.click(within(menu).getByRole("menuitem", { name: "Retornar" }));
    await waitFor(() => expect(api.callsTo("PUT", "/api/tickets/7")).toHaveLength(1));
    expect(api.callsTo("PUT", "/api/tickets/7")[0].body).toMatchObject({ status: "pending", userId: null });
    expect(screen.queryByRole("menu")).toBeNull();
  });

  it("keeps a waiting ticket's Accept a button beside the folded menu (issue 20 §2.7)", async () => {
    const ticket = aTicket({ status: "pending", userId: null });
    const api = fakeApi({ "PUT /api/tickets/:id": (request) => ({ body: { ...ticket, ...(request.body as object) } }) });
    signedInAs(api, AGENT);
    renderWithProviders(<TicketActions ticket={ticket} />);
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
