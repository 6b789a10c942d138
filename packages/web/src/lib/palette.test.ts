import { describe, expect, it } from "vitest";
import { brand, type ColorMode } from "./palette";

/** WCAG 2.x relative luminance of an sRGB colour, "#rrggbb". */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255);
  const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** AA: 4.5 for text, 3 for icons and large text (WCAG 1.4.3 and 1.4.11). */
const TEXT = 4.5;
const GRAPHIC = 3;

describe.each<ColorMode>(["light", "dark"])("the %s palette meets WCAG AA", (mode) => {
  const c = brand[mode];
  const pairs: [string, string, string, number][] = [
    ["text on the page", c.text.primary, c.background.default, TEXT],
    ["text on paper", c.text.primary, c.background.paper, TEXT],
    ["secondary text on paper", c.text.secondary, c.background.paper, TEXT],
    ["secondary text on the page", c.text.secondary, c.background.default, TEXT],
    ["a contained button's label", c.primary.contrastText, c.primary.main, TEXT],
    [
      "a dark-primary app bar's title",
      mode === "light" ? "#ffffff" : c.text.primary,
      mode === "light" ? c.primary.dark : c.background.paper,
      TEXT,
    ],
    ["the accent's label", c.secondary.contrastText, c.secondary.main, TEXT],
    ["primary-coloured text on paper (links, titles)", c.primary.main, c.background.paper, TEXT],
    ["accent text on paper (a group sender's name)", c.secondary.main, c.background.paper, TEXT],
    ["text in my bubble", c.bubble.text, c.bubble.mine, TEXT],
    ["text in the customer's bubble", c.bubble.text, c.bubble.theirs, TEXT],
    ["secondary text (time) in my bubble", c.text.secondary, c.bubble.mine, TEXT],
    ["secondary text (time) in the customer's bubble", c.text.secondary, c.bubble.theirs, TEXT],
    ["text in a private note", c.note.text, c.note.background, TEXT],
    ["a note's label", c.note.label, c.note.background, TEXT],
    ["an @mention in a note", c.note.mention, c.note.background, TEXT],
    ["the note composer's text", c.note.text, c.note.input, TEXT],
    ["the read ticks in my bubble", c.chat.read, c.bubble.mine, GRAPHIC],
    ["the empty conversation's text on the wallpaper", c.text.secondary, c.chat.background, TEXT],
    ["the customer's bubble on the wallpaper", c.bubble.theirs, c.chat.background, 1],
    ["the focus ring on the page", c.focus, c.background.default, GRAPHIC],
    ["the focus ring on paper", c.focus, c.background.paper, GRAPHIC],
  ];
  it.each(pairs)("%s", (_name, fg, bg, minimum) => {
    expect(contrast(fg, bg)).toBeGreaterThanOrEqual(minimum);
  });

  it("my bubble stands apart from the wallpaper and from the customer's", () => {
    expect(c.bubble.mine).not.toBe(c.bubble.theirs);
    expect(contrast(c.bubble.mine, c.chat.background)).toBeGreaterThan(1.05);
  });
});

describe("the contrast formula", () => {
  it("gives 21 for black on white and 1 for a colour on itself", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#2576d2", "#2576d2")).toBe(1);
  });
});
