import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { aTicket } from "../../../testing/fixtures";
import { renderWithProviders } from "../../../testing/render";
import { TicketHeader } from "./ticket-header";

describe("a rated ticket (issue 11, CSAT)", () => {
  it("shows the customer's rating as stars in the header, and nothing while unrated", async () => {
    const { unmount } = await renderWithProviders(
      <TicketHeader ticket={aTicket({ status: "closed", rating: 4 })} onOpenContact={() => {}} />,
    );
    expect(screen.getByRole("img", { name: "Avaliação do cliente: 4 de 5" })).toBeInTheDocument();
    unmount();
    await renderWithProviders(<TicketHeader ticket={aTicket({ status: "closed", rating: null })} onOpenContact={() => {}} />);
    expect(screen.queryByTestId("ticket-rating")).toBeNull();
  });
});
