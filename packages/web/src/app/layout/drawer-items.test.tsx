import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SCREENS } from "../../features/shortcuts/screens";
import { ADMIN, AGENT, fakeApi, signedInAs } from "../../testing/fake-api";
import { renderWithProviders } from "../../testing/render";
import { DrawerItems } from "./drawer-items";

function drawerPaths() {
  const nav = screen.getByRole("navigation");
  return within(nav)
    .getAllByRole("link")
    .map((link) => new URL(link.getAttribute("href") ?? "", "http://x").pathname);
}

describe("the drawer and the command palette's screens", () => {
  it("list the same screens, so Ctrl/⌘+K reaches every screen of the menu (admin)", async () => {
    signedInAs(fakeApi({ "GET /api/whatsapp": { body: [] } }), ADMIN);
    await renderWithProviders(<DrawerItems />);
    await waitFor(() => expect(drawerPaths().sort()).toEqual(SCREENS.map((s) => s.path).sort()));
  });

  it("and the same ones for an agent, without the administration", async () => {
    signedInAs(fakeApi({ "GET /api/whatsapp": { body: [] } }), AGENT);
    await renderWithProviders(<DrawerItems />);
    await screen.findByRole("link", { name: "Dashboard" });
    expect(drawerPaths().sort()).toEqual(
      SCREENS.filter((s) => !s.permission)
        .map((s) => s.path)
        .sort(),
    );
  });
});
