import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { APPEARANCE_KEY } from "../../lib/appearance";
import { AGENT, fakeApi, signedInAs } from "../../testing/fake-api";
import { renderWithProviders } from "../../testing/render";
import { UserMenu } from "./user-menu";

describe("user menu → Appearance", () => {
  it("opens the appearance dialog, whose choices are stored in this browser", async () => {
    signedInAs(fakeApi(), AGENT);
    await renderWithProviders(<UserMenu />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Menu do usuário" }));
    await user.click(await screen.findByRole("menuitem", { name: "Aparência" }));
    const dialog = await screen.findByRole("dialog", { name: "Aparência" });
    expect(dialog).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Compacta" }));
    await user.click(screen.getByRole("button", { name: "Claro" }));
    expect(JSON.parse(localStorage.getItem(APPEARANCE_KEY) ?? "{}")).toEqual({ theme: "light", density: "compact" });
  });
});
