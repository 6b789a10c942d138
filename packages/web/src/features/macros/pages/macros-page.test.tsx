import { screen, within } from "@testing-library/react";
import type { Macro } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import { ADMIN, AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import MacrosPage from "./macros-page";

const macro = (id: number, name: string, ownerId: number | null): Macro => ({
  id,
  name,
  shared: ownerId === null,
  ownerId,
  actions: [{ type: "addTag", tagId: 1 }, { type: "resolve" }],
  createdAt: "2026-01-01T10:00:00.000Z",
  updatedAt: "2026-01-01T10:00:00.000Z",
});
const MACROS = [macro(1, "Venda fechada", null), macro(2, "Meu atalho", AGENT.id)];

describe("the macros page (issue 23 §2)", () => {
  it("an agent edits their own macros; the shared ones are read-only for them", async () => {
    signedInAs(fakeApi({ "GET /api/macros": { body: { macros: MACROS } } }), AGENT);
    await renderWithProviders(<MacrosPage />);
    const table = await screen.findByRole("table", { name: "Macros" });
    const shared = await within(table).findByRole("row", { name: /Venda fechada/ });
    expect(shared).toHaveTextContent("Compartilhada");
    expect(shared).toHaveTextContent("Adicionar etiqueta · Resolver");
    expect(within(shared).queryByRole("button", { name: /Editar/ })).toBeNull();
    const mine = within(table).getByRole("row", { name: /Meu atalho/ });
    expect(mine).toHaveTextContent("Pessoal");
    expect(within(mine).getByRole("button", { name: /Editar/ })).toBeVisible();
  });

  it("an administrator (macros:manage) edits the shared ones too", async () => {
    signedInAs(fakeApi({ "GET /api/macros": { body: { macros: [MACROS[0]] } } }), ADMIN);
    await renderWithProviders(<MacrosPage />);
    const row = await screen.findByRole("row", { name: /Venda fechada/ });
    expect(within(row).getByRole("button", { name: /Editar/ })).toBeVisible();
  });
});
