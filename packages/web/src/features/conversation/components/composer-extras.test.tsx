import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { ComposerExtras } from "./composer-extras";

async function setup(narrow: boolean) {
  signedInAs(fakeApi({}), AGENT);
  const onAttach = vi.fn();
  const onSignChange = vi.fn();
  await renderWithProviders(
    <ComposerExtras ticketId={7} narrow={narrow} disabled={false} sign onSignChange={onSignChange} onAttach={onAttach} />,
  );
  return { onAttach, onSignChange };
}

describe("the composer's secondary actions", () => {
  it("sit beside the text box on a wide screen", async () => {
    const { onAttach } = await setup(false);
    await userEvent.click(screen.getByRole("button", { name: "Anexar arquivo" }));
    expect(onAttach).toHaveBeenCalledOnce();
    expect(screen.getByRole("button", { name: "Agendar mensagem" })).toBeInTheDocument();
    expect(screen.getByRole("switch", { name: "Assinar" })).toBeChecked();
    expect(screen.queryByRole("button", { name: "Mais ações" })).toBeNull();
  });

  it("fold behind one button on a phone: attach, schedule and sign from its menu", async () => {
    const user = userEvent.setup();
    const { onAttach, onSignChange } = await setup(true);
    expect(screen.queryByRole("button", { name: "Anexar arquivo" })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Mais ações" }));
    const sign = screen.getByRole("menuitemcheckbox", { name: "Assinar" });
    expect(sign).toHaveAttribute("aria-checked", "true");
    await user.click(sign);
    expect(onSignChange).toHaveBeenCalledWith(false);
    await user.click(screen.getByRole("menuitem", { name: "Anexar arquivo" }));
    expect(onAttach).toHaveBeenCalledOnce();
    await user.click(screen.getByRole("button", { name: "Mais ações" }));
    await user.click(screen.getByRole("menuitem", { name: "Agendar mensagem" }));
    expect(await screen.findByRole("dialog")).toBeInTheDocument();
  });
});
