import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { aTicket } from "../../../testing/fixtures";
import { renderWithProviders } from "../../../testing/render";
import { TicketRow } from "./ticket-row";

const row = (botHeld: boolean | undefined) => (
  <TicketRow
    ticket={aTicket({ status: "pending", botHeld })}
    selected={false}
    onOpen={() => {}}
    onAccept={() => {}}
    accepting={false}
  />
);

describe("a waiting ticket a queue's bot holds (issue 23 §4)", () => {
  it("says so in the row, with what Accept does, until the bot hands it over", async () => {
    const view = await renderWithProviders(row(true));
    const chip = screen.getByTestId("bot-held");
    expect(chip).toHaveAccessibleName("Robô");
    expect(chip).toHaveAccessibleDescription(/Aceitar assume a conversa e encerra o robô/);
    await userEvent.setup().hover(chip);
    expect(await screen.findByRole("tooltip")).toHaveTextContent("Um robô está conversando com este cliente.");
    expect(screen.getByRole("button", { name: "Aceitar" })).toBeEnabled();

    // The ticket's realtime update after the handover (botHeld false) takes the mark away.
    view.rerender(row(false));
    expect(screen.queryByTestId("bot-held")).toBeNull();
  });

  it("is not shown on a ticket no bot holds", async () => {
    await renderWithProviders(row(undefined));
    expect(screen.queryByTestId("bot-held")).toBeNull();
    expect(screen.queryByText("Robô")).toBeNull();
  });
});
