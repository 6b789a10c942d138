import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ClosingChoice, ClosingReason } from "@zapdesk/core";
import { describe, expect, it, vi } from "vitest";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { ClosingReasonPicker, parseAmount } from "./closing-reason-picker";

const reason = (id: number, name: string, over: Partial<ClosingReason> = {}): ClosingReason => ({
  id,
  name,
  asksValue: false,
  archived: false,
  createdAt: "2026-01-01T10:00:00.000Z",
  updatedAt: "2026-01-01T10:00:00.000Z",
  ...over,
});
const REASONS = [reason(1, "Venda", { asksValue: true }), reason(2, "Dúvida"), reason(3, "Antigo", { archived: true })];

async function renderPicker(mode: "optional" | "required") {
  const api = fakeApi({ "GET /api/closing-reasons": { body: { closingReasons: REASONS } } });
  signedInAs(api, AGENT);
  const onConfirm = vi.fn<(choice: ClosingChoice) => void>();
  await renderWithProviders(
    <ClosingReasonPicker open mode={mode} title="Resolver" confirmLabel="Confirmar" onCancel={() => {}} onConfirm={onConfirm} />,
  );
  return { onConfirm, user: userEvent.setup() };
}

describe("the closing reason picker (issue 23 §6)", () => {
  it("required: refuses to confirm without a reason, offers only active reasons, and asks a value where the reason does", async () => {
    const { onConfirm, user } = await renderPicker("required");
    const dialog = await screen.findByRole("dialog", { name: "Resolver" });
    await user.click(within(dialog).getByRole("button", { name: "Confirmar" }));
    expect(await within(dialog).findByText("Esta fila pede um motivo de encerramento.")).toBeVisible();
    expect(onConfirm).not.toHaveBeenCalled();

    await user.click(within(dialog).getByRole("combobox", { name: /Motivo de encerramento/ }));
    await waitFor(() => expect(screen.getAllByRole("option")).toHaveLength(3));
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual(["Escolha um motivo", "Venda", "Dúvida"]);
    await user.click(screen.getByRole("option", { name: "Venda" }));

    const value = await within(dialog).findByRole("textbox", { name: /Valor/ });
    await user.type(value, "12,345");
    await user.click(within(dialog).getByRole("button", { name: "Confirmar" }));
    expect(await within(dialog).findByText("Um valor de 0 ou mais, com no máximo duas casas decimais.")).toBeVisible();
    expect(onConfirm).not.toHaveBeenCalled();

    await user.clear(value);
    await user.type(value, "150,50");
    await user.click(within(dialog).getByRole("button", { name: "Confirmar" }));
    expect(onConfirm).toHaveBeenCalledExactlyOnceWith({ closingReasonId: 1, closingValue: 150.5 });
  });

  it("optional: confirms without a reason, or with a reason that takes no value", async () => {
    const { onConfirm, user } = await renderPicker("optional");
    const dialog = await screen.findByRole("dialog", { name: "Resolver" });
    await user.click(within(dialog).getByRole("button", { name: "Confirmar" }));
    expect(onConfirm).toHaveBeenLastCalledWith({ closingReasonId: null });
    await user.click(within(dialog).getByRole("combobox", { name: /Motivo de encerramento/ }));
    await user.click(await screen.findByRole("option", { name: "Dúvida" }));
    expect(within(dialog).queryByRole("textbox", { name: /Valor/ })).toBeNull();
    await user.click(within(dialog).getByRole("button", { name: "Confirmar" }));
    expect(onConfirm).toHaveBeenLastCalledWith({ closingReasonId: 2, closingValue: null });
  });

  it("reads amounts typed with a comma or a dot, two decimals at most", () => {
    expect(parseAmount("150,5")).toBe(150.5);
    expect(parseAmount(" 1000.00 ")).toBe(1000);
    for (const bad of ["", "-1", "1,234.5", "1.234", "abc"]) expect(parseAmount(bad), bad).toBeNaN();
  });
});
