import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FormattedText } from "./formatted-text";

const renderText = (text: string) => render(<p data-testid="text">{<FormattedText text={text} />}</p>);

describe("WhatsApp formatting", () => {
  it("renders *bold* and ~strike~ as elements and keeps the rest as text", () => {
    renderText("Hello *Maria*, price ~10~ 8 today");
    const text = screen.getByTestId("text");
    expect(text.querySelector("strong")?.textContent).toBe("Maria");
    expect(text.querySelector("del")?.textContent).toBe("10");
    expect(text.textContent).toBe("Hello Maria, price 10 8 today");
  });

  it("opens links in a new tab without giving the page away", () => {
    renderText("see https://example.com/a?b=1. now");
    const link = screen.getByRole("link", { name: "https://example.com/a?b=1" });
    expect(link).toHaveAttribute("href", "https://example.com/a?b=1");
    expect(link).toHaveAttribute("target", "_blank");
    expect(link).toHaveAttribute("rel", "noopener noreferrer");
  });

  it("never turns message text into HTML: <img onerror> and <script> show as text", () => {
    const hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script> *<b>bold</b>*';
    renderText(hostile);
    const text = screen.getByTestId("text");
    expect(text.querySelector("img")).toBeNull();
    expect(text.querySelector("script")).toBeNull();
    expect(text.querySelector("b")).toBeNull();
    expect(text.querySelector("strong")?.textContent).toBe("<b>bold</b>");
    expect(text.textContent).toBe('<img src=x onerror="alert(1)"><script>alert(2)</script> <b>bold</b>');
  });

  it("does not link javascript: or other schemes, and leaves lone markers alone", () => {
    renderText("javascript:alert(1) 2*3 = 6 and ~ alone");
    expect(screen.queryByRole("link")).toBeNull();
    expect(screen.getByTestId("text").querySelector("strong, del")).toBeNull();
  });
});
