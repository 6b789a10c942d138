import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { isTyping, useShortcut } from "./registry";

function Harness({ onJ, onPalette, dialog = false }: { onJ(): void; onPalette(): void; dialog?: boolean }) {
  useShortcut("j", () => onJ());
  useShortcut("k", () => onPalette(), { mod: true, whileTyping: true, inDialogs: true });
  return (
    <div>
      <input aria-label="field" />
      <textarea aria-label="area" />
      <p data-testid="editable" contentEditable suppressContentEditableWarning>
        x
      </p>
      <input type="checkbox" aria-label="box" />
      <button type="button">plain</button>
      {dialog && (
        <div role="dialog" aria-label="a dialog">
          <button type="button">inside</button>
        </div>
      )}
    </div>
  );
}

describe("the shortcut registry", () => {
  it("never fires while typing in an input, a textarea or a contenteditable; Ctrl+K does", async () => {
    const onJ = vi.fn();
    const onPalette = vi.fn();
    render(<Harness onJ={onJ} onPalette={onPalette} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("textbox", { name: "field" }));
    await user.keyboard("j");
    await user.click(screen.getByRole("textbox", { name: "area" }));
    await user.keyboard("j");
    fireEvent.keyDown(screen.getByTestId("editable"), { key: "j" });
    expect(onJ).not.toHaveBeenCalled();
    expect(screen.getByRole("textbox", { name: "field" })).toHaveValue("j");
    await user.keyboard("{Control>}k{/Control}");
    expect(onPalette).toHaveBeenCalledTimes(1);
    // Outside a field (a checkbox, a button, the page), the key acts and is taken from the page.
    await user.click(screen.getByRole("checkbox", { name: "box" }));
    await user.keyboard("j");
    await user.click(screen.getByRole("button", { name: "plain" }));
    await user.keyboard("j");
    expect(onJ).toHaveBeenCalledTimes(2);
    expect(fireEvent.keyDown(document.body, { key: "j" })).toBe(false);
    // With a modifier it is another shortcut: Ctrl+J is the browser's.
    fireEvent.keyDown(document.body, { key: "j", ctrlKey: true });
    expect(onJ).toHaveBeenCalledTimes(3);
  });

  it("stays silent while a dialog is open, except Ctrl/⌘+K", async () => {
    const onJ = vi.fn();
    const onPalette = vi.fn();
    render(<Harness onJ={onJ} onPalette={onPalette} dialog />);
    fireEvent.keyDown(screen.getByRole("button", { name: "inside" }), { key: "j" });
    fireEvent.keyDown(document.body, { key: "j" });
    expect(onJ).not.toHaveBeenCalled();
    fireEvent.keyDown(document.body, { key: "k", metaKey: true });
    expect(onPalette).toHaveBeenCalledTimes(1);
  });

  it("knows what typing is", () => {
    const input = document.createElement("input");
    const radio = Object.assign(document.createElement("input"), { type: "radio" });
    expect(isTyping(input)).toBe(true);
    expect(isTyping(radio)).toBe(false);
    expect(isTyping(document.createElement("textarea"))).toBe(true);
    expect(isTyping(document.createElement("button"))).toBe(false);
    expect(isTyping(null)).toBe(false);
  });
});
