import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { NotificationsBell } from "./notifications-bell";

const mention = (id: number, read = false) => ({
  id,
  messageId: 100 + id,
  ticketId: 7,
  body: `please look ${id}`,
  author: { id: 3, name: "Ana" },
  contact: { id: 9, name: "Paula" },
  read,
  createdAt: "2026-03-04T12:34:00.000Z",
});

describe("mentions in the bell (issue 11)", () => {
  it("counts unread mentions with the unread tickets, lists them and marks one read when opened", async () => {
    const api = fakeApi({
      "GET /api/tickets": { body: { tickets: [], count: 2, hasMore: false } },
      "GET /api/notes/mentions": { body: { mentions: [mention(1), mention(2, true)], unreadCount: 1 } },
      "POST /api/notes/mentions/:id/read": { status: 204 },
    });
    signedInAs(api, AGENT);
    await renderWithProviders(<NotificationsBell />);

    const bell = await screen.findByRole("button", { name: "Notificações: 2 tickets não lidos, 1 menção não lida" });
    expect(within(bell).getByText("3")).toBeInTheDocument();
    await userEvent.setup().click(bell);
    const list = screen.getByRole("list", { name: "Menções" });
    expect(within(list).getAllByTestId("mention-item")).toHaveLength(1);
    expect(within(list).getByText("Ana mencionou você · Paula")).toBeVisible();
    expect(within(list).getByText("please look 1")).toBeVisible();

    await userEvent.setup().click(within(list).getByTestId("mention-item"));
    await waitFor(() => expect(api.callsTo("POST", "/api/notes/mentions/1/read")).toHaveLength(1));
  });
});
