import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aTicket } from "../../../testing/fixtures";
import { renderWithProviders } from "../../../testing/render";
import { TicketHeader } from "./ticket-header";

describe("the ticket header names the reason of the last close (issue 23 §6)", () => {
  it("shows it, with the value, on a closed ticket; not on a reopened one", async () => {
    signedInAs(fakeApi(), AGENT);
    const closingReason = { id: 4, name: "Venda", archived: false, value: 1500.5, at: "2026-03-10T12:00:00.000Z" };
    const { rerender } = await renderWithProviders(
      <TicketHeader ticket={aTicket({ status: "closed", closingReason })} onOpenContact={() => {}} />,
    );
    expect(await screen.findByTestId("ticket-closing-reason")).toHaveTextContent("Encerrado: Venda · 1.500,50");
    rerender(<TicketHeader ticket={aTicket({ status: "open", closingReason })} onOpenContact={() => {}} />);
    expect(screen.queryByTestId("ticket-closing-reason")).toBeNull();
  });
});
