/**
 * Zapdesk's brand colours (issue 13 item 8), one set per mode. A deep teal says "support" and
 * "messaging" without being WhatsApp's green; a burnt-orange accent warms it; the greys lean green.
 * Every pair of text on a surface used by the app is checked for WCAG AA in palette.test.ts.
 */
export type ColorMode = "light" | "dark";

export interface BrandColors {
  primary: { main: string; light: string; dark: string; contrastText: string };
  secondary: { main: string; light: string; dark: string; contrastText: string };
  background: { default: string; paper: string };
  text: { primary: string; secondary: string };
  divider: string;
  /** The conversation: its wallpaper, the two kinds of bubble and the text on them. */
  chat: { background: string; highlight: string; read: string };
  bubble: { mine: string; theirs: string; text: string };
  /** Private notes (issue 11): amber in both modes. */
  note: { background: string; border: string; label: string; text: string; input: string; mention: string };
  /** The focus ring, the same warm accent everywhere. */
  focus: string;
}

export const brand: Record<ColorMode, BrandColors> = {
  light: {
    primary: { main: "#0b6b5f", light: "#3c9488", dark: "#064a41", contrastText: "#ffffff" },
    secondary: { main: "#b5501b", light: "#d97b45", dark: "#8a3a10", contrastText: "#ffffff" },
    background: { default: "#f2f5f4", paper: "#ffffff" },
    text: { primary: "#1b2523", secondary: "#52605c" },
    divider: "rgba(27, 37, 35, 0.12)",
    chat: { background: "#d9e2df", highlight: "rgba(255, 200, 61, 0.45)", read: "#0b7bc2" },
    bubble: { mine: "#d3f0e4", theirs: "#ffffff", text: "#1b2523" },
    note: { background: "#fff4cc", border: "#d99a00", label: "#7a4a00", text: "#2b2410", input: "#fffdf5", mention: "#0d4f9e" },
    focus: "#b86e00",
  },
  dark: {
    primary: { main: "#5cc8b4", light: "#8adccd", dark: "#2f9c88", contrastText: "#04201c" },
    secondary: { main: "#f29a66", light: "#f6b88f", dark: "#c9703d", contrastText: "#2a1205" },
    background: { default: "#0e1413", paper: "#161f1d" },
    text: { primary: "#e4ebe9", secondary: "#b3c0bc" },
    divider: "rgba(228, 235, 233, 0.14)",
    chat: { background: "#0a0f0e", highlight: "rgba(255, 200, 61, 0.22)", read: "#6cc4ff" },
    bubble: { mine: "#1c4a41", theirs: "#1f2a28", text: "#e4ebe9" },
    note: { background: "#3a2e0e", border: "#c99212", label: "#f5c96a", text: "#f3ead2", input: "#2a220b", mention: "#9cc8ff" },
    focus: "#ffb547",
  },
};
