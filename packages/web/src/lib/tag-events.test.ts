import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { aTicket } from "../testing/fixtures";
import { queryKeys } from "./query-keys";
import { applyTagEvent } from "./tag-events";

const VIP = { id: 1, name: "VIP", color: "#e53935" };
const BILLING = { id: 2, name: "Billing", color: "#1e88e5" };

function seeded() {
  const client = new QueryClient();
  client.setQueryData(queryKeys.tags.all, { tags: [BILLING, VIP] });
  const listKey = ["tickets", "list", { status: "open" }];
  client.setQueryData(listKey, {
    pages: [{ tickets: [aTicket({ tags: [VIP, BILLING] }), aTicket({ id: 8 })], count: 2, hasMore: false }],
    pageParams: [1],
  });
  client.setQueryData(["tickets", "detail", 7], aTicket({ tags: [VIP] }));
  client.setQueryData(queryKeys.contacts.detail(5), { id: 5, tags: [VIP] });
  return { client, listKey };
}

describe("the tag event in the cache", () => {
  it("a renamed or recoloured tag changes on every ticket and contact that carries it", () => {
    const { client, listKey } = seeded();
    const untouched = (client.getQueryData(listKey) as { pages: { tickets: unknown[] }[] }).pages[0].tickets[1];
    applyTagEvent(client, { action: "update", tag: { ...VIP, name: "Gold", color: "#fdd835" } });
    const list = client.getQueryData(listKey) as { pages: { tickets: { tags: unknown[] }[] }[] };
    expect(list.pages[0].tickets[0].tags).toEqual([{ id: 1, name: "Gold", color: "#fdd835" }, BILLING]);
    expect(list.pages[0].tickets[1]).toBe(untouched);
    expect((client.getQueryData(["tickets", "detail", 7]) as { tags: unknown[] }).tags).toEqual([
      { id: 1, name: "Gold", color: "#fdd835" },
    ]);
    expect(client.getQueryData(queryKeys.tags.all)).toEqual({ tags: [BILLING, { id: 1, name: "Gold", color: "#fdd835" }] });
  });

  it("a deleted tag leaves the list, the tickets and the contacts", () => {
    const { client, listKey } = seeded();
    applyTagEvent(client, { action: "delete", tagId: VIP.id });
    const list = client.getQueryData(listKey) as { pages: { tickets: { tags: unknown[] }[] }[] };
    expect(list.pages[0].tickets[0].tags).toEqual([BILLING]);
    expect((client.getQueryData(queryKeys.contacts.detail(5)) as { tags: unknown[] }).tags).toEqual([]);
    expect(client.getQueryData(queryKeys.tags.all)).toEqual({ tags: [BILLING] });
  });

  it("a created tag joins the list in name order", () => {
    const { client } = seeded();
    applyTagEvent(client, { action: "create", tag: { id: 3, name: "Cold", color: "#000" } });
    expect((client.getQueryData(queryKeys.tags.all) as { tags: { name: string }[] }).tags.map((t) => t.name)).toEqual([
      "Billing",
      "Cold",
      "VIP",
    ]);
  });
});
