import { alpha, createTheme, type Theme } from "@mui/material/styles";
import { brand, type ColorMode } from "./palette";

export type Density = "comfortable" | "compact";

declare module "@mui/material/styles" {
  interface Palette {
    chat: { background: string; highlight: string; read: string };
    bubble: { mine: string; theirs: string; text: string };
    note: { background: string; border: string; label: string; text: string; input: string; mention: string };
  }
  interface PaletteOptions {
    chat?: Palette["chat"];
    bubble?: Palette["bubble"];
    note?: Palette["note"];
  }
}

/**
 * The theme for a colour mode and a density (issue 13 item 8). Focus rings stay explicit: keyboard
 * users must see where they are. Compact tightens spacing and makes controls small by default.
 */
export function buildTheme(mode: ColorMode, density: Density): Theme {
  const c = brand[mode];
  const compact = density === "compact";
  const small = compact ? ({ size: "small" } as const) : {};
  const ring = { outline: `2px solid ${c.focus}`, outlineOffset: 2 };
  return createTheme({
    palette: {
      mode,
      primary: c.primary,
      secondary: c.secondary,
      background: c.background,
      text: c.text,
      divider: c.divider,
      chat: c.chat,
      bubble: c.bubble,
      note: c.note,
    },
    spacing: compact ? 6 : 8,
    shape: { borderRadius: 10 },
    typography: {
      fontSize: compact ? 13 : 14,
      h4: { fontWeight: 600, letterSpacing: "-0.01em" },
      h5: { fontWeight: 600, letterSpacing: "-0.005em" },
      h6: { fontWeight: 600 },
      subtitle1: { fontWeight: 600 },
      button: { textTransform: "none", fontWeight: 600, letterSpacing: "0.01em" },
    },
    components: {
      MuiCssBaseline: { styleOverrides: { body: { transition: "background-color 0.2s" } } },
      MuiButtonBase: { styleOverrides: { root: { "&.Mui-focusVisible": ring } } },
      MuiLink: { styleOverrides: { root: { "&:focus-visible": ring } } },
      MuiButton: {
        defaultProps: { disableElevation: true, ...small },
        styleOverrides: { root: { borderRadius: 8 } },
      },
      MuiIconButton: { defaultProps: small },
      MuiTextField: { defaultProps: small },
      MuiSelect: { defaultProps: small },
      MuiToggleButton: { defaultProps: small, styleOverrides: { root: { textTransform: "none" } } },
      MuiChip: {
        defaultProps: small,
        styleOverrides: { root: { borderRadius: 8, fontWeight: 500 } },
      },
      MuiListItemButton: {
        defaultProps: { dense: compact },
        styleOverrides: {
          root: {
            borderRadius: 8,
            "&.Mui-selected": { backgroundColor: alpha(c.primary.main, mode === "dark" ? 0.22 : 0.12) },
          },
        },
      },
      MuiListItem: { defaultProps: { dense: compact } },
      MuiMenuItem: { defaultProps: { dense: compact } },
      MuiTable: { defaultProps: small },
      MuiToolbar: { defaultProps: compact ? { variant: "dense" } : {} },
      MuiAppBar: {
        defaultProps: { elevation: 0 },
        styleOverrides: {
          colorPrimary: {
            backgroundColor: mode === "dark" ? c.background.paper : c.primary.dark,
            color: mode === "dark" ? c.text.primary : "#ffffff",
            borderBottom: `1px solid ${c.divider}`,
          },
        },
      },
      MuiDrawer: {
        styleOverrides: { paper: { backgroundColor: mode === "dark" ? c.background.paper : "#fbfcfc", backgroundImage: "none" } },
      },
      MuiPaper: { styleOverrides: { root: { backgroundImage: "none" } } },
      MuiTooltip: { defaultProps: { arrow: true } },
    },
  });
}
