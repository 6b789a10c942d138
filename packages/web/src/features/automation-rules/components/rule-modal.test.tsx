import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ADMIN, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aRuleEvent } from "../../../testing/fixtures";
import { renderWithProviders } from "../../../testing/render";
import { RuleModal } from "./rule-modal";

const DRY_RUN = {
  from: "2026-11-28T12:00:00.000Z",
  to: "2026-12-05T12:00:00.000Z",
  eventsScanned: 12,
  truncated: false,
  tickets: [
    {
      ticketId: 31,
      contactName: "Ana Souza",
      firings: [
        {
          event: aRuleEvent(),
          outcome: "wouldRun",
          actions: [{ type: "addNote", body: "Cancelamento" }],
        },
      ],
    },
  ],
};

describe("the automation rule form (issue 23 §1)", () => {
  it("dry-runs the unsaved definition and shows the tickets it would have fired on; saving sends the same definition", async () => {
    const api = fakeApi({
      "GET /api/users": { body: { users: [], count: 0, hasMore: false } },
      "GET /api/tags": { body: { tags: [] } },
      "GET /api/queue": { body: [] },
      "GET /api/whatsapp": { body: [] },
      "GET /api/webhooks": { body: { webhooks: [] } },
      "GET /api/closing-reasons": { body: { closingReasons: [] } },
      "POST /api/automation-rules/dry-run": { body: DRY_RUN },
      "POST /api/automation-rules": { body: { id: 1 } },
    });
    signedInAs(api, ADMIN);
    await renderWithProviders(<RuleModal open rule={null} onClose={() => {}} />);
    const user = userEvent.setup();
    const dialog = await screen.findByRole("dialog", { name: "Adicionar regra" });
    await user.type(within(dialog).getByLabelText("Nome"), "Cancelamentos");
    await user.click(within(dialog).getByRole("button", { name: "Adicionar condição" }));
    await user.type(within(dialog).getByLabelText("Valor"), "cancelar");
    await user.click(within(dialog).getByRole("combobox", { name: "Ação 1" }));
    await user.click(screen.getByRole("option", { name: "Adicionar nota privada" }));
    await user.type(within(dialog).getByLabelText("Texto"), "Cancelamento");
    await user.click(within(dialog).getByRole("button", { name: "Simular" }));
    const result = await within(dialog).findByRole("region", { name: "Simulação: últimos 7 dias" });
    expect(result).toHaveTextContent("Ticket 31 · Ana Souza");
    expect(result).toHaveTextContent("Executaria");
    const definition = {
      name: "Cancelamentos",
      trigger: "messageReceived",
      idleMinutes: null,
      conditions: [{ type: "messageText", op: "contains", value: "cancelar" }],
      actions: [{ type: "addNote", body: "Cancelamento" }],
      maxPerHour: 3,
    };
    expect(api.callsTo("POST", "/api/automation-rules/dry-run")[0].body).toEqual(definition);
    await user.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(api.callsTo("POST", "/api/automation-rules")).toHaveLength(1));
    expect(api.callsTo("POST", "/api/automation-rules")[0].body).toEqual({ ...definition, enabled: false });
  });
});
