import CssBaseline from "@mui/material/CssBaseline";
import { ThemeProvider } from "@mui/material/styles";
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState, useSyncExternalStore } from "react";
import type { ColorMode } from "./palette";
import { buildTheme, type Density } from "./theme";

/** What the user chose (issue 13 item 8): "system" follows the OS, live. Kept in this browser only. */
export type ThemePreference = "system" | ColorMode;
export interface Appearance {
  theme: ThemePreference;
  density: Density;
}

export const APPEARANCE_KEY = "zapdesk.appearance";
const DEFAULTS: Appearance = { theme: "system", density: "comfortable" };
const DARK_QUERY = "(prefers-color-scheme: dark)";

export function readAppearance(): Appearance {
  try {
    const stored = JSON.parse(localStorage.getItem(APPEARANCE_KEY) ?? "{}") as Partial<Appearance>;
    return {
      theme: stored.theme === "light" || stored.theme === "dark" ? stored.theme : DEFAULTS.theme,
      density: stored.density === "compact" ? "compact" : DEFAULTS.density,
    };
  } catch {
    return DEFAULTS;
  }
}

/** The OS's colour scheme, re-read when it changes (the user switches to dark at sunset). */
function subscribeSystem(notify: () => void) {
  if (typeof window.matchMedia !== "function") return () => {};
  const query = window.matchMedia(DARK_QUERY);
  query.addEventListener?.("change", notify);
  return () => query.removeEventListener?.("change", notify);
}
const systemIsDark = () => typeof window.matchMedia === "function" && window.matchMedia(DARK_QUERY).matches;

export function useSystemMode(): ColorMode {
  return useSyncExternalStore(subscribeSystem, systemIsDark, () => false) ? "dark" : "light";
}

interface AppearanceContextValue extends Appearance {
  /** The mode in effect: the choice, or the system's. */
  mode: ColorMode;
  update(change: Partial<Appearance>): void;
}

const AppearanceContext = createContext<AppearanceContextValue | null>(null);

export function useAppearance(): AppearanceContextValue {
  const value = useContext(AppearanceContext);
  if (!value) throw new Error("useAppearance outside AppearanceProvider");
  return value;
}

/** The theme for the user's choice of mode and density, with MUI's baseline (page colour, color-scheme). */
export function AppearanceProvider({ children }: { children: ReactNode }) {
  const [appearance, setAppearance] = useState(readAppearance);
  const system = useSystemMode();
  const mode = appearance.theme === "system" ? system : appearance.theme;
  const theme = useMemo(() => buildTheme(mode, appearance.density), [mode, appearance.density]);
  const update = useCallback((change: Partial<Appearance>) => {
    setAppearance((current) => {
      const next = { ...current, ...change };
      localStorage.setItem(APPEARANCE_KEY, JSON.stringify(next));
      return next;
    });
  }, []);
  const value = useMemo(() => ({ ...appearance, mode, update }), [appearance, mode, update]);
  return (
    <AppearanceContext.Provider value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline enableColorScheme />
        {children}
      </ThemeProvider>
    </AppearanceContext.Provider>
  );
}
