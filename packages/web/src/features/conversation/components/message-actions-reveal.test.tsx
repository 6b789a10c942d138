// @vitest-environment jsdom
// happy-dom (the web project's environment) does not apply :focus-within in computed styles; jsdom does.
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aMessage } from "../../../testing/fixtures";
import { renderWithProviders } from "../../../testing/render";
import { MessageBubble } from "./message-bubble";

describe("issue 13: a calmer pane, a message's actions show on hover or focus", () => {
  it("the actions button is hidden at rest, in the tab order, and shown when focus is within the message", async () => {
    signedInAs(fakeApi(), AGENT);
    const onMenu = vi.fn();
    await renderWithProviders(
      <>
        <button type="button">before</button>
        <MessageBubble message={aMessage({ id: 5, body: "Bom dia" })} isGroup={false} onMenu={onMenu} />
      </>,
    );
    const actions = await screen.findByRole("button", { name: "Opções da mensagem" });
    expect(getComputedStyle(actions).opacity).toBe("0");

    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "before" }));
    await user.tab();
    expect(actions).toHaveFocus();
    expect(getComputedStyle(actions).opacity).toBe("1");

    await user.keyboard("{Enter}");
    expect(onMenu).toHaveBeenCalledWith(expect.objectContaining({ id: 5 }), actions);
  });
});
