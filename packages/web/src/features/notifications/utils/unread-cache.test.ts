import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { aTicket } from "../../../testing/fixtures";
import { notificationKeys, type UnreadTickets } from "../api/get-unread-tickets";
import { dropUnread, raiseUnread, refreshUnread } from "./unread-cache";

const unread = (id: number) => aTicket({ id, unreadMessages: 1, userId: null });

function bell(ids: number[], count: number) {
  const client = new QueryClient();
  client.setQueryData<UnreadTickets>(notificationKeys.unread, { tickets: ids.map(unread), count });
  const read = () => client.getQueryData<UnreadTickets>(notificationKeys.unread);
  const stale = () => client.getQueryState(notificationKeys.unread)?.isInvalidated;
  return { client, read, stale };
}

describe("the bell's count follows the server's count", () => {
  it("moves with the tickets it knows: a new one adds, a read one subtracts, a repeat changes nothing", () => {
    const { client, read, stale } = bell([1, 2], 2);
    raiseUnread(client, unread(3));
    expect(read()).toMatchObject({ count: 3 });
    expect(read()?.tickets.map((t) => t.id)).toEqual([3, 1, 2]);
    raiseUnread(client, unread(2));
    expect(read()?.tickets.map((t) => t.id)).toEqual([2, 3, 1]);
    expect(read()?.count).toBe(3);
    dropUnread(client, 1);
    dropUnread(client, 99);
    expect(read()).toMatchObject({ count: 2 });
    refreshUnread(client, { ...unread(3), lastMessage: "new text" });
    expect(read()?.tickets.find((t) => t.id === 3)?.lastMessage).toBe("new text");
    expect(stale()).toBe(false);
  });

  it("keeps the unseen ones beyond the first page in the count", () => {
    const { client, read, stale } = bell([1, 2], 57);
    dropUnread(client, 2);
    expect(read()).toMatchObject({ count: 56 });
    raiseUnread(client, unread(1));
    expect(read()).toMatchObject({ count: 56 });
    expect(stale()).toBe(false);
  });

  it("asks the server again about a ticket it cannot place (maybe counted beyond the first page)", () => {
    const dropped = bell([1, 2], 57);
    dropUnread(dropped.client, 77);
    expect(dropped.stale()).toBe(true);
    expect(dropped.read()?.count).toBe(57);

    const raised = bell([1, 2], 57);
    raiseUnread(raised.client, unread(77));
    expect(raised.stale()).toBe(true);
  });

  it("asks once: the fetch it starts brings the answer, not another question", async () => {
    const client = new QueryClient();
    let fetches = 0;
    const queryFn = async (): Promise<UnreadTickets> => {
      fetches += 1;
      return { tickets: [unread(1), unread(2)], count: 57 };
    };
    const stop = new QueryObserver(client, { queryKey: notificationKeys.unread, queryFn }).subscribe(() => {});
    await expect.poll(() => fetches).toBe(1);
    raiseUnread(client, unread(77));
    await expect.poll(() => client.getQueryState(notificationKeys.unread)?.fetchStatus).toBe("idle");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetches).toBe(2);
    stop();
  });
});
