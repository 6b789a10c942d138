import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { CONTACT_PREVIEW_MARK, LOCATION_PREVIEW_MARK } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aTicket } from "../../../testing/fixtures";
import { renderWithProviders } from "../../../testing/render";
import { NotificationsBell } from "./notifications-bell";

describe("the notification bell", () => {
  it("counts every unread ticket the server counts, not the first page it lists", async () => {
    const firstPage = Array.from({ length: 40 }, (_, i) =>
      aTicket({ id: i + 1, unreadMessages: 1, userId: null, lastMessage: `message ${i + 1}` }),
    );
    const api = fakeApi({ "GET /api/tickets": { body: { tickets: firstPage, count: 57, hasMore: true } } });
    signedInAs(api, AGENT);
    await renderWithProviders(<NotificationsBell />);

    const bell = await screen.findByRole("button", { name: "Notificações: 57 tickets não lidos" });
    expect(within(bell).getByText("57")).toBeInTheDocument();
    expect(api.callsTo("GET", "/api/tickets")[0].query.get("withUnreadMessages")).toBe("true");

    await userEvent.setup().click(bell);
    expect(within(screen.getByRole("region", { name: "Notificações" })).getAllByText(/^message \d+$/)).toHaveLength(40);
  });

  it("names a shared contact and a location instead of their raw bodies (issue 20 §2.2)", async () => {
    const tickets = [
      aTicket({ id: 1, unreadMessages: 1, userId: null, lastMessage: `${CONTACT_PREVIEW_MARK}Ana Souza` }),
      aTicket({ id: 2, unreadMessages: 1, userId: null, lastMessage: `${LOCATION_PREVIEW_MARK}Avenida Paulista` }),
    ];
    const api = fakeApi({ "GET /api/tickets": { body: { tickets, count: 2, hasMore: false } } });
    signedInAs(api, AGENT);
    await renderWithProviders(<NotificationsBell />);

    await userEvent.setup().click(await screen.findByRole("button", { name: "Notificações: 2 tickets não lidos" }));
    const region = within(screen.getByRole("region", { name: "Notificações" }));
    expect(region.getByText("Contato: Ana Souza")).toBeInTheDocument();
    expect(region.getByText("Localização: Avenida Paulista")).toBeInTheDocument();
  });
});
