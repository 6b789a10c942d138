import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { refetchWhenLanded, updateQueries } from "./query-updates";

type Item = { id: number; name: string };

/** A fetch whose answer the test gives when it wants (an answer read before the event). */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const upsert = (item: Item) => (list: Item[]) =>
  list.some((x) => x.id === item.id) ? list.map((x) => (x.id === item.id ? item : x)) : [...list, item];
const remove = (id: number) => (list: Item[]) => list.filter((x) => x.id !== id);

describe("realtime updates and fetches under way", () => {
  it("an update during a first fetch lands on its answer, read before the change", async () => {
    const client = new QueryClient();
    const answer = deferred<Item[]>();
    const fetched = client.fetchQuery({ queryKey: ["items"], queryFn: () => answer.promise });
    updateQueries<Item[]>(client, { queryKey: ["items"] }, upsert({ id: 2, name: "new" }));
    answer.resolve([{ id: 1, name: "old" }]);
    await fetched;
    expect(client.getQueryData(["items"])).toEqual([
      { id: 1, name: "old" },
      { id: 2, name: "new" },
    ]);
  });

  it("an update during a refetch is applied to what is cached now and again to the answer, in order", async () => {
    const client = new QueryClient();
    client.setQueryData<Item[]>(["items"], [{ id: 1, name: "a" }]);
    const answer = deferred<Item[]>();
    const fetched = client.fetchQuery({ queryKey: ["items"], queryFn: () => answer.promise });
    updateQueries<Item[]>(client, { queryKey: ["items"] }, upsert({ id: 2, name: "b" }));
    updateQueries<Item[]>(client, { queryKey: ["items"] }, remove(1));
    expect(client.getQueryData(["items"])).toEqual([{ id: 2, name: "b" }]);
    answer.resolve([
      { id: 1, name: "a" },
      { id: 3, name: "c" },
    ]);
    await fetched;
    expect(client.getQueryData(["items"])).toEqual([
      { id: 3, name: "c" },
      { id: 2, name: "b" },
    ]);
  });

  it("keeps nothing once the answer has landed, or when the fetch fails", async () => {
    const client = new QueryClient();
    const failing = deferred<Item[]>();
    const failed = client.fetchQuery({ queryKey: ["items"], queryFn: () => failing.promise });
    updateQueries<Item[]>(client, { queryKey: ["items"] }, upsert({ id: 2, name: "lost with the failure" }));
    failing.reject(new Error("offline"));
    await expect(failed).rejects.toThrow("offline");
    await client.fetchQuery({ queryKey: ["items"], queryFn: async () => [{ id: 1, name: "fresh" }] });
    expect(client.getQueryData(["items"])).toEqual([{ id: 1, name: "fresh" }]);

    // Not being fetched: updated once, nothing waits for a later answer.
    updateQueries<Item[]>(client, { queryKey: ["items"] }, upsert({ id: 3, name: "now" }));
    expect(client.getQueryData(["items"])).toHaveLength(2);
    await client.fetchQuery({ queryKey: ["items"], queryFn: async () => [{ id: 1, name: "later" }] });
    expect(client.getQueryData(["items"])).toEqual([{ id: 1, name: "later" }]);
  });

  it("updates every query under the prefix, each with its own key", async () => {
    const client = new QueryClient();
    client.setQueryData<Item[]>(["items", "a"], []);
    const answer = deferred<Item[]>();
    const fetched = client.fetchQuery({ queryKey: ["items", "b"], queryFn: () => answer.promise });
    client.setQueryData<Item[]>(["other"], []);
    updateQueries<Item[]>(client, { queryKey: ["items"] }, (list, key) => [...list, { id: 9, name: String(key[1]) }]);
    answer.resolve([]);
    await fetched;
    expect(client.getQueryData(["items", "a"])).toEqual([{ id: 9, name: "a" }]);
    expect(client.getQueryData(["items", "b"])).toEqual([{ id: 9, name: "b" }]);
    expect(client.getQueryData(["other"])).toEqual([]);
  });

  it("a query fetching when asked is fetched once more after its answer lands; one at rest is not", async () => {
    const client = new QueryClient();
    let fetches = 0;
    const first = deferred<number>();
    const queryFn = () => (++fetches === 1 ? first.promise : Promise.resolve(fetches));
    // Shown (observed), as the socket's connection finds it: invalidation refetches what is shown.
    const stop = new QueryObserver(client, { queryKey: ["n"], queryFn }).subscribe(() => {});
    refetchWhenLanded(client);
    first.resolve(1);
    await expect.poll(() => client.getQueryData(["n"])).toBe(2);
    refetchWhenLanded(client);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetches).toBe(2);
    stop();
  });
});
