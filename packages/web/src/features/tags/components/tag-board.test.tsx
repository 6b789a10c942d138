import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Tag } from "@zapdesk/core";
import { describe, expect, it, vi } from "vitest";
import i18n from "../../../lib/i18n";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aTicket } from "../../../testing/fixtures";
import { renderWithProviders } from "../../../testing/render";
import { TagBoard } from "./tag-board";

const VIP: Tag = { id: 1, name: "VIP", color: "#e53935" };
const BILLING: Tag = { id: 2, name: "Billing", color: "#1e88e5" };
const URGENT: Tag = { id: 3, name: "Urgent", color: "#fdd835" };

const maria = aTicket({ id: 7, tags: [VIP, URGENT] });
const joao = aTicket({ id: 8, contact: { id: 6, name: "João", number: "5511900000000", profilePicUrl: "" }, tags: [] });

/** A DataTransfer as far as the board uses one (jsdom has none). */
function transfer() {
  const data = new Map<string, string>();
  return {
    setData: (type: string, value: string) => data.set(type, value),
    getData: (type: string) => data.get(type) ?? "",
    get types() {
      return [...data.keys()];
    },
    effectAllowed: "all",
    dropEffect: "none",
  };
}

async function setup() {
  await i18n.changeLanguage("en");
  signedInAs(fakeApi(), AGENT);
  const onSetTags = vi.fn(async () => undefined);
  await renderWithProviders(
    <TagBoard tickets={[maria, joao]} tags={[VIP, BILLING, URGENT]} onOpen={() => {}} onSetTags={onSetTags} />,
  );
  return onSetTags;
}

const column = (name: string) => screen.getByRole("region", { name });
const card = (columnName: string, ticketId: number) =>
  column(columnName).querySelector(`[data-ticket-id="${ticketId}"]`) as HTMLElement;

describe("the tag board", () => {
  it("shows each open ticket in the column of each of its tags, untagged ones under No tag", async () => {
    await setup();
    expect(
      within(column("No tag"))
        .getAllByRole("listitem")
        .map((c) => c.dataset.ticketId),
    ).toEqual(["8"]);
    expect(card("VIP", 7)).not.toBeNull();
    expect(card("Urgent", 7)).not.toBeNull();
    expect(within(column("Billing")).queryAllByRole("listitem")).toHaveLength(0);
  });

  it("a card dragged from VIP to Billing replaces VIP with Billing and keeps Urgent", async () => {
    const onSetTags = await setup();
    const dataTransfer = transfer();
    fireEvent.dragStart(card("VIP", 7), { dataTransfer });
    fireEvent.dragOver(column("Billing"), { dataTransfer });
    fireEvent.drop(column("Billing"), { dataTransfer });
    await waitFor(() => expect(onSetTags).toHaveBeenCalledTimes(1));
    expect(onSetTags).toHaveBeenCalledWith(7, [URGENT.id, BILLING.id]);
  });

  it("a card dropped on its own column changes nothing; one from No tag gets the target tag alone", async () => {
    const onSetTags = await setup();
    const same = transfer();
    fireEvent.dragStart(card("VIP", 7), { dataTransfer: same });
    fireEvent.drop(column("VIP"), { dataTransfer: same });
    expect(onSetTags).not.toHaveBeenCalled();
    const fromNone = transfer();
    fireEvent.dragStart(card("No tag", 8), { dataTransfer: fromNone });
    fireEvent.drop(column("Urgent"), { dataTransfer: fromNone });
    await waitFor(() => expect(onSetTags).toHaveBeenCalledWith(8, [URGENT.id]));
  });

  it("moves a card from the keyboard with its Move to menu (No tag clears every tag)", async () => {
    const onSetTags = await setup();
    const moveButton = within(card("Urgent", 7)).getByRole("button", { name: "Move Maria to…" });
    moveButton.focus();
    await userEvent.keyboard("{Enter}");
    const menu = await screen.findByRole("menu");
    expect(
      within(menu)
        .getAllByRole("menuitem")
        .map((i) => i.textContent),
    ).toEqual(["No tag", "VIP", "Billing"]);
    await userEvent.click(within(menu).getByRole("menuitem", { name: "No tag" }));
    await waitFor(() => expect(onSetTags).toHaveBeenCalledWith(7, []));
  });
});
