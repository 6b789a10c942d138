import { useTheme } from "@mui/material/styles";
import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AppearanceDialog } from "../app/layout/appearance-dialog";
import { APPEARANCE_KEY, AppearanceProvider } from "./appearance";
import { brand } from "./palette";

/** A stand-in for the OS: `prefers-color-scheme` answers what we say and tells its listeners when it changes. */
function fakeSystem(dark: boolean) {
  const listeners = new Set<() => void>();
  const original = window.matchMedia;
  const matchMedia = vi.fn((query: string) => ({
    get matches() {
      return query.includes("prefers-color-scheme: dark") ? dark : /min-width:\s*600px/.test(query);
    },
    media: query,
    onchange: null,
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }));
  window.matchMedia = matchMedia as unknown as typeof window.matchMedia;
  return {
    switchTo(next: boolean) {
      dark = next;
      act(() => {
        for (const listener of listeners) listener();
      });
    },
    restore: () => {
      window.matchMedia = original;
    },
  };
}

function Probe() {
  const theme = useTheme();
  return (
    <output data-testid="probe" data-mode={theme.palette.mode} data-spacing={theme.spacing(1)}>
      {theme.palette.background.default}
    </output>
  );
}

const probe = () => screen.getByTestId("probe");
let system: ReturnType<typeof fakeSystem> | undefined;
afterEach(() => system?.restore());

describe("the colour mode", () => {
  it("follows the system, live when the OS switches", () => {
    system = fakeSystem(true);
    render(
      <AppearanceProvider>
        <Probe />
      </AppearanceProvider>,
    );
    expect(probe()).toHaveAttribute("data-mode", "dark");
    expect(probe()).toHaveTextContent(brand.dark.background.default);
    system.switchTo(false);
    expect(probe()).toHaveAttribute("data-mode", "light");
    expect(probe()).toHaveTextContent(brand.light.background.default);
  });

  it("a manual choice overrides the system and is kept in this browser", async () => {
    system = fakeSystem(false);
    const user = userEvent.setup();
    const { unmount } = render(
      <AppearanceProvider>
        <Probe />
        <AppearanceDialog open onClose={() => {}} />
      </AppearanceProvider>,
    );
    expect(screen.getByRole("button", { name: "Sistema" })).toHaveAttribute("aria-pressed", "true");
    await user.click(screen.getByRole("button", { name: "Escuro" }));
    expect(probe()).toHaveAttribute("data-mode", "dark");
    system.switchTo(false);
    expect(probe()).toHaveAttribute("data-mode", "dark");
    expect(JSON.parse(localStorage.getItem(APPEARANCE_KEY) ?? "{}")).toMatchObject({ theme: "dark" });
    unmount();

    render(
      <AppearanceProvider>
        <Probe />
      </AppearanceProvider>,
    );
    expect(probe()).toHaveAttribute("data-mode", "dark");
  });

  it("back to System follows the OS again", async () => {
    system = fakeSystem(true);
    localStorage.setItem(APPEARANCE_KEY, JSON.stringify({ theme: "light" }));
    render(
      <AppearanceProvider>
        <Probe />
        <AppearanceDialog open onClose={() => {}} />
      </AppearanceProvider>,
    );
    expect(probe()).toHaveAttribute("data-mode", "light");
    await userEvent.setup().click(screen.getByRole("button", { name: "Sistema" }));
    expect(probe()).toHaveAttribute("data-mode", "dark");
  });
});

describe("the density", () => {
  it("compact tightens spacing and persists across visits", async () => {
    system = fakeSystem(false);
    const user = userEvent.setup();
    const { unmount } = render(
      <AppearanceProvider>
        <Probe />
        <AppearanceDialog open onClose={() => {}} />
      </AppearanceProvider>,
    );
    expect(probe()).toHaveAttribute("data-spacing", "8px");
    await user.click(screen.getByRole("button", { name: "Compacta" }));
    expect(probe()).toHaveAttribute("data-spacing", "6px");
    unmount();

    render(
      <AppearanceProvider>
        <Probe />
        <AppearanceDialog open onClose={() => {}} />
      </AppearanceProvider>,
    );
    expect(probe()).toHaveAttribute("data-spacing", "6px");
    expect(screen.getByRole("button", { name: "Compacta" })).toHaveAttribute("aria-pressed", "true");
  });

  it("a damaged stored preference falls back to the defaults", () => {
    system = fakeSystem(false);
    localStorage.setItem(APPEARANCE_KEY, "{not json");
    render(
      <AppearanceProvider>
        <Probe />
      </AppearanceProvider>,
    );
    expect(probe()).toHaveAttribute("data-mode", "light");
    expect(probe()).toHaveAttribute("data-spacing", "8px");
  });
});
