import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { MacroModal } from "./macro-modal";

async function open(post: { status?: number; body: unknown }) {
  const api = fakeApi({
    "GET /api/users": { body: { users: [], count: 0, hasMore: false } },
    "GET /api/tags": { body: { tags: [{ id: 4, name: "VIP", color: "#123456" }] } },
    "GET /api/closing-reasons": { body: { closingReasons: [] } },
    "POST /api/macros": post,
  });
  signedInAs(api, AGENT);
  await renderWithProviders(<MacroModal open macro={null} onClose={() => {}} />);
  return { api, user: userEvent.setup() };
}

describe("the macro editor (issue 23 §2)", () => {
  it("saves the name and the actions in order; an agent cannot share (no macros:manage) nor call webhooks", async () => {
    const { api, user } = await open({ body: { id: 1 } });
    const dialog = await screen.findByRole("dialog", { name: "Adicionar macro" });
    expect(within(dialog).queryByLabelText("Compartilhada com todos")).toBeNull();
    await user.type(within(dialog).getByLabelText("Nome"), "Boas-vindas");
    await user.type(within(dialog).getByLabelText("Texto"), "Cliente novo");
    await user.click(within(dialog).getByRole("button", { name: "Adicionar ação" }));
    await user.click(within(dialog).getAllByRole("combobox", { name: /Ação 2/ })[0]);
    const kinds = screen.getAllByRole("option").map((o) => o.textContent);
    expect(kinds).toContain("Devolver à fila");
    expect(kinds).not.toContain("Chamar um webhook");
    await user.click(screen.getByRole("option", { name: "Devolver à fila" }));
    await user.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(api.callsTo("POST", "/api/macros")).toHaveLength(1));
    expect(api.callsTo("POST", "/api/macros")[0].body).toEqual({
      name: "Boas-vindas",
      shared: false,
      actions: [{ type: "addNote", body: "Cliente novo" }, { type: "returnToQueue" }],
    });
  });

  it("shows the server's refusal of an action under that action", async () => {
    const { user } = await open({
      status: 400,
      body: { error: "ERR_VALIDATION", details: [{ path: ["actions", 0], message: "No such tag" }] },
    });
    const dialog = await screen.findByRole("dialog", { name: "Adicionar macro" });
    await user.type(within(dialog).getByLabelText("Nome"), "X");
    await user.type(within(dialog).getByLabelText("Texto"), "y");
    await user.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await within(dialog).findByText("No such tag")).toBeVisible();
  });
});
