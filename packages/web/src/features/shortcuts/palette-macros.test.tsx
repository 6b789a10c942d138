import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Macro } from "@zapdesk/core";
import { useEffect } from "react";
import { useNavigate } from "react-router";
import { describe, expect, it } from "vitest";
import { AGENT, fakeApi, signedInAs } from "../../testing/fake-api";
import { renderWithProviders } from "../../testing/render";
import { CommandPalette } from "./command-palette";

const MACRO: Macro = {
  id: 3,
  name: "Pedido enviado",
  shared: true,
  ownerId: null,
  actions: [{ type: "addNote", body: "x" }],
  createdAt: "2026-01-01T10:00:00.000Z",
  updatedAt: "2026-01-01T10:00:00.000Z",
};

function At({ path }: { path: string }) {
  const navigate = useNavigate();
  useEffect(() => void navigate(path), [navigate, path]);
  return null;
}

describe("the command palette runs macros on the open ticket (issue 23 §2)", () => {
  it("offers the macros on a ticket's page and runs the chosen one on that ticket", async () => {
    const api = fakeApi({
      "GET /api/macros": { body: { macros: [MACRO] } },
      "GET /api/tickets": { body: { tickets: [], count: 0, hasMore: false } },
      "GET /api/contacts": { body: { contacts: [], count: 0, hasMore: false } },
      "POST /api/tickets/:id/macros/:macroId/run": {
        body: { macroId: 3, results: [{ index: 0, type: "addNote", outcome: "done" }], ticket: null },
      },
    });
    signedInAs(api, AGENT);
    await renderWithProviders(
      <>
        <At path="/tickets/12" />
        <CommandPalette open onClose={() => {}} onContact={() => {}} />
      </>,
    );
    const dialog = await screen.findByRole("dialog", { name: "Ir para" });
    await userEvent.setup().type(within(dialog).getByRole("combobox"), "pedido");
    const option = await within(dialog).findByRole("option", { name: /Pedido enviado.*Macro · ticket 12/ });
    await userEvent.setup().click(option);
    await waitFor(() => expect(api.callsTo("POST", "/api/tickets/12/macros/3/run")).toHaveLength(1));
    expect(await screen.findByText("Pedido enviado: 1 ação aplicada.")).toBeVisible();
  });

  it("offers none away from a ticket", async () => {
    const api = fakeApi({ "GET /api/macros": { body: { macros: [MACRO] } } });
    signedInAs(api, AGENT);
    await renderWithProviders(<CommandPalette open onClose={() => {}} onContact={() => {}} />);
    const dialog = await screen.findByRole("dialog", { name: "Ir para" });
    expect(within(dialog).queryByRole("option", { name: /Pedido enviado/ })).toBeNull();
    expect(api.callsTo("GET", "/api/macros")).toHaveLength(0);
  });
});
