import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { TransferTicketModal } from "./transfer-ticket-modal";

// Issue 13: one step; the ticket's queue preselected, its agents with presence and open tickets.
const PEOPLE = [
  { userId: 8, name: "Beatriz Lima", status: "online", openTickets: 2, queueIds: [4] },
  { userId: 9, name: "Carlos Souza", status: "away", openTickets: 0, queueIds: [4] },
  { userId: 10, name: "Diana Reis", status: "online", openTickets: 1, queueIds: [5] },
];

async function setup(queueId: number | null = 4) {
  const api = fakeApi({
    "GET /api/queue": {
      body: [
        { id: 4, name: "Support", color: "#B80000", greetingMessage: "" },
        { id: 5, name: "Sales", color: "#00B800", greetingMessage: "" },
      ],
    },
    "GET /api/users/presence": { body: PEOPLE },
    "PUT /api/tickets/:id": (r) => ({ body: { id: 12, status: "pending", ...(r.body as object) } }),
  });
  signedInAs(api, AGENT);
  await renderWithProviders(<TransferTicketModal ticketId={12} queueId={queueId} open onClose={() => {}} />);
  return api;
}

describe("the transfer dialog", () => {
  it("lists the ticket's queue's agents with presence and open tickets; picking one transfers in one step", async () => {
    const api = await setup();
    const user = userEvent.setup();
    const dialog = await screen.findByRole("dialog", { name: "Transferir Ticket" });
    const list = within(dialog).getByRole("list", { name: "Atendentes da fila" });
    await within(list).findByText("Beatriz Lima");
    expect(within(list).queryByText("Diana Reis")).not.toBeInTheDocument();
    expect(within(list).getByText("Online · 2 abertos")).toBeInTheDocument();
    expect(within(list).getByRole("img", { name: "Ausente" })).toBeInTheDocument();

    // The box only filters.
    await user.type(within(dialog).getByRole("textbox", { name: "Filtrar atendentes" }), "carl");
    expect(within(list).queryByText("Beatriz Lima")).not.toBeInTheDocument();
    await user.click(within(list).getByText("Carlos Souza"));
    await user.click(within(dialog).getByRole("button", { name: "Transferir" }));
    await waitFor(() => expect(api.callsTo("PUT", "/api/tickets/12")).toHaveLength(1));
    expect(api.callsTo("PUT", "/api/tickets/12")[0].body).toEqual({ userId: 9, queueId: 4 });
  });

  it("queue only sends pending, no user and the queue; another queue lists its own agents", async () => {
    const api = await setup(null);
    const user = userEvent.setup();
    const dialog = await screen.findByRole("dialog", { name: "Transferir Ticket" });
    expect(within(dialog).getByRole("button", { name: "Transferir" })).toBeDisabled();
    await user.click(within(dialog).getByRole("combobox", { name: "Fila" }));
    await user.click(await screen.findByRole("option", { name: "Sales" }));
    const list = within(dialog).getByRole("list", { name: "Atendentes da fila" });
    await within(list).findByText("Diana Reis");
    expect(within(list).queryByText("Beatriz Lima")).not.toBeInTheDocument();
    await user.click(within(list).getByText("Somente a fila (sem atendente)"));
    await user.click(within(dialog).getByRole("button", { name: "Transferir" }));
    await waitFor(() => expect(api.callsTo("PUT", "/api/tickets/12")).toHaveLength(1));
    expect(api.callsTo("PUT", "/api/tickets/12")[0].body).toEqual({ status: "pending", userId: null, queueId: 5 });
  });
});
