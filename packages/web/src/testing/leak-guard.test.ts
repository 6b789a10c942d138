import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { refreshSession } from "../lib/api-client";
import { ADMIN, fakeApi, signedInAs } from "./fake-api";
import { settleAsyncWork } from "./leak-guard";

describe("the web tests' leak guard (runs after every test)", () => {
  it("fails a test that leaves an interval running, saying where it started", async () => {
    let ticks = 0;
    setInterval(() => {
      ticks += 1;
    }, 20);
    await expect(settleAsyncWork()).rejects.toThrow(
      /left 1 timer\(s\)[\s\S]*an interval of 20 ms started[\s\S]*leak-guard\.test\.ts/,
    );
    // It stopped the interval so the next test starts clean.
    const seen = ticks;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(ticks).toBe(seen);
  });

  it("fails a test that leaves a long timer (a retry, a debounce) behind", async () => {
    setTimeout(() => {}, 5_000);
    await expect(settleAsyncWork()).rejects.toThrow(/a timeout of 5000 ms started/);
  });

  it("lets a session refresh in flight finish while the page still exists (the 'window is not defined' of issue 20)", async () => {
    const api = fakeApi();
    signedInAs(api, ADMIN);
    let settled = false;
    void refreshSession().then(() => {
      settled = true;
    });
    expect(settled).toBe(false);
    await settleAsyncWork();
    expect(settled).toBe(true);
    expect(api.callsTo("POST", "/api/auth/refresh_token")).toHaveLength(1);
    expect(localStorage.getItem("token")).toBe("access-2");
  });

  it("stops the queries' and mutations' 5-minute garbage collection, also of a query the app already dropped", async () => {
    const client = new QueryClient();
    client.setQueryData(["tickets"], []);
    const dropped = client.getQueryCache().build(client, { queryKey: ["dropped"] });
    client.getQueryCache().remove(dropped);
    // A screen still observing a query a logout removed schedules its garbage collection on unmount.
    dropped.addObserver({} as never);
    dropped.removeObserver({} as never);
    client.getMutationCache().build(client, { mutationFn: async () => 1 });
    await expect(settleAsyncWork()).resolves.toBeUndefined();
  });

  it("only stops what a test that already failed left, without blaming it too", async () => {
    let ticks = 0;
    setInterval(() => {
      ticks += 1;
    }, 20);
    await expect(settleAsyncWork(undefined, { report: false })).resolves.toBeUndefined();
    const seen = ticks;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(ticks).toBe(seen);
  });

  it("passes a test that ended its work", async () => {
    const timer = setTimeout(() => {}, 10_000);
    clearTimeout(timer);
    await expect(settleAsyncWork()).resolves.toBeUndefined();
  });
});
