import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Macro } from "@zapdesk/core";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { RunMacroDialog } from "./run-macro-dialog";

const macro = (id: number, name: string, actions: Macro["actions"], ownerId: number | null = null): Macro => ({
  id,
  name,
  shared: ownerId === null,
  ownerId,
  actions,
  createdAt: "2026-01-01T10:00:00.000Z",
  updatedAt: "2026-01-01T10:00:00.000Z",
});
const MACROS = [
  macro(1, "Pedido enviado", [{ type: "addNote", body: "x" }, { type: "resolve" }]),
  macro(2, "Minha", [{ type: "returnToQueue" }], AGENT.id),
];

/** As the ticket's options menu mounts it: the dialog is gone as soon as a macro is chosen. */
function Host() {
  const [open, setOpen] = useState(true);
  return open ? <RunMacroDialog ticketId={7} open onClose={() => setOpen(false)} /> : null;
}

describe("Run macro on a ticket (issue 23 §2)", () => {
  it("lists the macros with their actions, runs the chosen one and says how many actions applied", async () => {
    const server = fakeApi({
      "GET /api/macros": { body: { macros: MACROS } },
      "POST /api/tickets/:id/macros/:macroId/run": {
        body: {
          macroId: 1,
          results: [
            { index: 0, type: "addNote", outcome: "done" },
            { index: 1, type: "resolve", outcome: "done" },
          ],
          ticket: null,
        },
      },
    });
    signedInAs(server, AGENT);
    await renderWithProviders(<Host />);
    const dialog = await screen.findByRole("dialog", { name: "Executar macro" });
    expect(await within(dialog).findByText("Adicionar nota privada · Resolver")).toBeVisible();
    await userEvent.setup().click(within(dialog).getByRole("button", { name: /Pedido enviado/ }));
    await waitFor(() => expect(server.callsTo("POST", "/api/tickets/7/macros/1/run")).toHaveLength(1));
    // Said after the dialog closed and unmounted.
    expect(await screen.findByText("Pedido enviado: 2 ações aplicadas.")).toBeVisible();
    expect(screen.queryByRole("dialog", { name: "Executar macro" })).toBeNull();
  });

  it("shows the refusal: nothing was applied", async () => {
    const server = fakeApi({
      "GET /api/macros": { body: { macros: MACROS } },
      "POST /api/tickets/:id/macros/:macroId/run": {
        status: 400,
        body: { error: "ERR_CLOSING_REASON_REQUIRED", details: [{ path: ["actions", 1], message: "resolve: required" }] },
      },
    });
    signedInAs(server, AGENT);
    await renderWithProviders(<Host />);
    await userEvent.setup().click(await screen.findByRole("button", { name: /Pedido enviado/ }));
    expect(await screen.findByRole("alert")).toHaveTextContent("motivo de encerramento");
  });
});
