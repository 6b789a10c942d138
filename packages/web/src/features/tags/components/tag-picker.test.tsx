import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Tag } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aTicket } from "../../../testing/fixtures";
import { renderWithProviders } from "../../../testing/render";
import { TicketTags } from "./ticket-tags";

const VIP: Tag = { id: 1, name: "VIP", color: "#e53935" };
const BILLING: Tag = { id: 2, name: "Billing", color: "#1e88e5" };
const URGENT: Tag = { id: 3, name: "Urgent", color: "#fdd835" };

async function setup(tags: Tag[]) {
  await i18n.changeLanguage("en");
  const api = fakeApi({
    "GET /api/tags": { body: { tags: [BILLING, URGENT, VIP] } },
    "PUT /api/tickets/:id": (request) => {
      const ids = (request.body as { tagIds: number[] }).tagIds;
      return { body: aTicket({ tags: [BILLING, URGENT, VIP].filter((t) => ids.includes(t.id)) }) };
    },
  });
  signedInAs(api, AGENT);
  await renderWithProviders(<TicketTags ticket={aTicket({ tags })} />);
  return api;
}

describe("the ticket header's tag picker", () => {
  it("shows the ticket's tags as chips in their colour", async () => {
    await setup([VIP]);
    const group = screen.getByRole("group", { name: "Tags of ticket #7" });
    const chip = within(group).getByRole("button", { name: /Tag VIP/ });
    expect(chip).toHaveStyle({ backgroundColor: "#e53935" });
  });

  it("adds a tag from the list of every tag (the ticket's own ticked), sending the whole set", async () => {
    const api = await setup([VIP]);
    await userEvent.click(screen.getByRole("button", { name: "Add tag" }));
    const menu = await screen.findByRole("menu");
    const items = within(menu).getAllByRole("menuitemcheckbox");
    expect(items.map((i) => [i.textContent, i.getAttribute("aria-checked")])).toEqual([
      ["Billing", "false"],
      ["Urgent", "false"],
      ["VIP", "true"],
    ]);
    await userEvent.click(within(menu).getByRole("menuitemcheckbox", { name: "Urgent" }));
    await waitFor(() => expect(api.callsTo("PUT", "/api/tickets/7")).toHaveLength(1));
    expect(api.callsTo("PUT", "/api/tickets/7")[0].body).toEqual({ tagIds: [VIP.id, URGENT.id] });
  });

  it("removes a tag with its chip's delete icon", async () => {
    const api = await setup([VIP, BILLING]);
    const chip = screen.getByRole("button", { name: /Tag VIP/ });
    await userEvent.click(within(chip).getByTestId("CancelIcon"));
    await waitFor(() => expect(api.callsTo("PUT", "/api/tickets/7")).toHaveLength(1));
    expect(api.callsTo("PUT", "/api/tickets/7")[0].body).toEqual({ tagIds: [BILLING.id] });
  });

  it("unticks a tag in the list to remove it", async () => {
    const api = await setup([VIP, BILLING]);
    await userEvent.click(screen.getByRole("button", { name: "Add tag" }));
    await userEvent.click(await screen.findByRole("menuitemcheckbox", { name: "VIP" }));
    await waitFor(() => expect(api.callsTo("PUT", "/api/tickets/7")).toHaveLength(1));
    expect(api.callsTo("PUT", "/api/tickets/7")[0].body).toEqual({ tagIds: [BILLING.id] });
  });
});
