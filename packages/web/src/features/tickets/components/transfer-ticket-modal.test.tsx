import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { TransferTicketModal } from "./transfer-ticket-modal";

const COLLEAGUE = { ...AGENT, id: 8, name: "Beatriz Lima", email: "bia@zapdesk.local" };

function setup() {
  const api = fakeApi({
    "GET /api/queue": { body: [{ id: 4, name: "Support", color: "#B80000", greetingMessage: "" }] },
    "GET /api/users": (r) => ({
      body: { users: (r.query.get("searchParam") ?? "").length >= 3 ? [COLLEAGUE] : [], count: 1, hasMore: false },
    }),
    "PUT /api/tickets/:id": (r) => ({ body: { id: 12, status: "pending", ...(r.body as object) } }),
  });
  signedInAs(api, AGENT);
  renderWithProviders(<TransferTicketModal ticketId={12} open onClose={() => {}} />);
  return api;
}

const userSearches = (api: ReturnType<typeof fakeApi>) => api.callsTo("GET", "/api/users").map((c) => c.query.get("searchParam"));

describe("the transfer modal (spec §4, §5)", () => {
  it("searches users from 3 characters, 500 ms after typing, and a user alone sends only userId", async () => {
    const api = setup();
    const user = userEvent.setup();
    const dialog = await screen.findByRole("dialog", { name: "Transferir Ticket" });
    await user.type(within(dialog).getByRole("combobox", { name: "Digite para buscar usuários" }), "Be");
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(userSearches(api)).toEqual([]);
    await user.type(within(dialog).getByRole("combobox", { name: "Digite para buscar usuários" }), "a");
    await user.click(await screen.findByRole("option", { name: "Beatriz Lima" }, { timeout: 2000 }));
    expect(userSearches(api)).toEqual(["bea"]);
    await user.click(within(dialog).getByRole("button", { name: "Transferir" }));
    await waitFor(() => expect(api.callsTo("PUT", "/api/tickets/12")).toHaveLength(1));
    expect(api.callsTo("PUT", "/api/tickets/12")[0].body).toEqual({ userId: COLLEAGUE.id });
  });

  it("a queue alone sends pending, no user and the queue", async () => {
    const api = setup();
    const user = userEvent.setup();
    const dialog = await screen.findByRole("dialog", { name: "Transferir Ticket" });
    expect(within(dialog).getByRole("button", { name: "Transferir" })).toBeDisabled();
    await user.click(within(dialog).getByRole("combobox", { name: "Fila" }));
    await user.click(await screen.findByRole("option", { name: "Support" }));
    await user.click(within(dialog).getByRole("button", { name: "Transferir" }));
    await waitFor(() => expect(api.callsTo("PUT", "/api/tickets/12")).toHaveLength(1));
    expect(api.callsTo("PUT", "/api/tickets/12")[0].body).toEqual({ status: "pending", userId: null, queueId: 4 });
  });
});
