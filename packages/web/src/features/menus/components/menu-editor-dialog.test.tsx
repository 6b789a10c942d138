import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Connection } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import { ADMIN, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { MenuEditorDialog } from "./menu-editor-dialog";

const QUEUES = [
  { id: 7, name: "Vendas", color: "#B80000", greetingMessage: "" },
  { id: 8, name: "Suporte", color: "#0000B8", greetingMessage: "" },
];
const connection = { id: 3, name: "Loja", greetingMessage: "Olá! Escolha:", queues: QUEUES } as unknown as Connection;

async function open() {
  const api = fakeApi({
    "GET /api/whatsapp/3/menu": { body: { whatsappId: 3, menu: null } },
    "GET /api/queue": { body: QUEUES },
    "GET /api/users": { body: { users: [], count: 0, hasMore: false } },
    "PUT /api/whatsapp/3/menu": { body: { whatsappId: 3, menu: null } },
  });
  signedInAs(api, ADMIN);
  await renderWithProviders(<MenuEditorDialog connection={connection} onClose={() => {}} />);
  return { api, user: userEvent.setup() };
}

describe("the menu tree editor (issue 23 §3)", () => {
  it("starts from the queues' one-level menu, previews the text, and saves a nested tree", async () => {
    const { api, user } = await open();
    const dialog = await screen.findByRole("dialog", { name: "Menu de Loja" });
    expect(await within(dialog).findByTestId("menu-preview")).toHaveTextContent("Olá! Escolha: *1* - Vendas *2* - Suporte", {
      normalizeWhitespace: true,
    });
    // Option 2 becomes a sub-menu with its own option.
    const sub = within(dialog).getByTestId("menu-option-2");
    await user.click(within(sub).getByRole("combobox", { name: "Leva a" }));
    await user.click(screen.getByRole("option", { name: "Um submenu" }));
    await user.type(within(sub).getByLabelText("Opção 2.1"), "Boletos");
    expect(within(sub).getAllByText(/\*1\* - Boletos/).length).toBeGreaterThan(0);
    await user.click(within(dialog).getByRole("button", { name: "Salvar" }));
    await waitFor(() => expect(api.callsTo("PUT", "/api/whatsapp/3/menu")).toHaveLength(1));
    const body = api.callsTo("PUT", "/api/whatsapp/3/menu")[0].body as { menu: { options: unknown[] } };
    expect(body.menu.options).toMatchObject([
      { label: "Vendas", target: "queue", queueId: 7 },
      { label: "Suporte", target: "menu", options: [{ label: "Boletos", target: "queue" }] },
    ]);
  });
});
