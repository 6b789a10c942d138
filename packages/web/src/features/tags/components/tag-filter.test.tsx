import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Tag } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aTicket } from "../../../testing/fixtures";
import { laidOutElements } from "../../../testing/layout";
import { renderWithProviders } from "../../../testing/render";
import { TicketsManager } from "../../tickets/components/tickets-manager";

const VIP: Tag = { id: 1, name: "VIP", color: "#e53935" };
const BILLING: Tag = { id: 2, name: "Billing", color: "#1e88e5" };

describe("the ticket list's tag filter", () => {
  laidOutElements();

  it("asks the server for tickets with any ticked tag (tagIds as a JSON array) and shows each row's chips", async () => {
    const tagged = aTicket({ id: 7, userId: AGENT.id, tags: [VIP] });
    const plain = aTicket({
      id: 8,
      userId: AGENT.id,
      contact: { id: 6, name: "João", number: "5511900000000", profilePicUrl: "" },
    });
    const api = fakeApi({
      "GET /api/tags": { body: { tags: [BILLING, VIP] } },
      "GET /api/tickets": (request) => {
        const wanted = JSON.parse(request.query.get("tagIds") ?? "[]") as number[];
        const all = request.query.get("status") === "open" ? [tagged, plain] : [];
        const tickets = wanted.length ? all.filter((t) => t.tags.some((tag) => wanted.includes(tag.id))) : all;
        return { body: { tickets, count: tickets.length, hasMore: false } };
      },
    });
    signedInAs(api, AGENT);
    await renderWithProviders(<TicketsManager />);
    const list = await screen.findByRole("list", { name: "Atendendo" });
    await within(list).findByRole("button", { name: "João" });
    expect(within(within(list).getByRole("button", { name: "Maria" })).getByText("VIP")).toBeInTheDocument();
    for (const call of api.callsTo("GET", "/api/tickets")) expect(call.query.has("tagIds")).toBe(false);

    await userEvent.click(screen.getByRole("combobox", { name: "Etiquetas" }));
    await userEvent.click(await screen.findByRole("option", { name: "VIP" }));
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(api.callsTo("GET", "/api/tickets").some((c) => c.query.get("tagIds") === "[1]")).toBe(true));
    await waitFor(() => expect(within(list).queryByRole("button", { name: "João" })).toBeNull());
    expect(within(list).getByRole("button", { name: "Maria" })).toBeInTheDocument();
  });
});
