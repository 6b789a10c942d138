import { describe, expect, it, vi } from "vitest";
import { ADMIN, fakeApi } from "../testing/fake-api";
import { ApiError, api, apiFetch, fetchMediaBlob, onSessionChange } from "./api-client";
import { getToken } from "./token-storage";

describe("api client (spec §4 session)", () => {
  it("sends the stored token as a Bearer header with credentials", async () => {
    localStorage.setItem("token", "abc");
    const server = fakeApi({ "GET /api/users": { body: { users: [], count: 0, hasMore: false } } });
    await api.get("/users", { searchParam: "", pageNumber: 1 });
    expect(server.calls[0].headers.Authorization).toBe("Bearer abc");
    expect(server.calls[0].query.get("pageNumber")).toBe("1");
    expect(server.calls[0].query.has("searchParam")).toBe(false);
    const init = vi.mocked(fetch).mock.calls[0][1];
    expect(init?.credentials).toBe("include");
  });

  it("refreshes once on 403 and retries with the new token", async () => {
    localStorage.setItem("token", "old");
    const server = fakeApi({
      "POST /api/auth/refresh_token": { body: { token: "new", user: ADMIN } },
      "GET /api/queue": (req) =>
        req.headers.Authorization === "Bearer new" ? { body: [] } : { status: 403, body: { error: "ERR_TOKEN_EXPIRED" } },
    });
    await expect(api.get("/queue")).resolves.toEqual([]);
    expect(server.callsTo("POST", "/api/auth/refresh_token")).toHaveLength(1);
    expect(getToken()).toBe("new");
  });

  it("shares one refresh between requests that expire together", async () => {
    localStorage.setItem("token", "old");
    const server = fakeApi({
      "POST /api/auth/refresh_token": { body: { token: "new", user: ADMIN } },
      "GET /api/queue": (req) =>
        req.headers.Authorization === "Bearer new" ? { body: [] } : { status: 403, body: { error: "ERR_TOKEN_EXPIRED" } },
    });
    await Promise.all([api.get("/queue"), api.get("/queue"), api.get("/queue")]);
    expect(server.callsTo("POST", "/api/auth/refresh_token")).toHaveLength(1);
  });

  it("does not refresh for a permission refusal and surfaces the 403", async () => {
    localStorage.setItem("token", "t");
    const server = fakeApi({ "POST /api/users": { status: 403, body: { error: "ERR_NO_PERMISSION" } } });
    const error = await api.post("/users", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("ERR_NO_PERMISSION");
    expect(server.callsTo("POST", "/api/auth/refresh_token")).toHaveLength(0);
    expect(getToken()).toBe("t");
  });

  it("one rule for every request: JSON calls, uploads and media that expire together share one refresh, then retry", async () => {
    localStorage.setItem("token", "old");
    const expired = { status: 403, body: { error: "ERR_TOKEN_EXPIRED" } };
    const server = fakeApi({
      "POST /api/auth/refresh_token": { body: { token: "new", user: ADMIN } },
      "GET /api/queue": (req) => (req.headers.Authorization === "Bearer new" ? { body: [] } : expired),
      "POST /api/messages/7": (req) => (req.headers.Authorization === "Bearer new" ? { body: { id: 1 } } : expired),
      "GET /api/media/a.png": (req) => (req.headers.Authorization === "Bearer new" ? { body: "png" } : expired),
    });
    const form = new FormData();
    form.append("body", "hello");
    const [queues, upload, media] = await Promise.all([
      api.get("/queue"),
      apiFetch("/messages/7", { method: "POST", body: form }),
      fetchMediaBlob("/api/media/a.png"),
    ]);
    expect(queues).toEqual([]);
    expect(upload.status).toBe(200);
    expect(media.size).toBe(JSON.stringify("png").length);
    expect(server.callsTo("POST", "/api/auth/refresh_token")).toHaveLength(1);
    expect(server.callsTo("POST", "/api/messages/7").map((c) => c.headers.Authorization)).toEqual(["Bearer old", "Bearer new"]);
  });

  it("refreshes only for an expired token: another 403 is the answer, whatever its code", async () => {
    localStorage.setItem("token", "t");
    const server = fakeApi({
      "PUT /api/contacts/3": { status: 403, body: { error: "ERR_CONTACT_NUMBER_ADMIN_ONLY" } },
      "GET /api/media/b.png": { status: 403, body: { error: "ERR_NO_PERMISSION" } },
    });
    await expect(api.put("/contacts/3", { number: "1" })).rejects.toMatchObject({ code: "ERR_CONTACT_NUMBER_ADMIN_ONLY" });
    await expect(fetchMediaBlob("/api/media/b.png")).rejects.toMatchObject({ status: 403, code: "ERR_NO_PERMISSION" });
    expect(server.callsTo("POST", "/api/auth/refresh_token")).toHaveLength(0);
    expect(getToken()).toBe("t");
  });

  it("logs out on 401", async () => {
    localStorage.setItem("token", "t");
    fakeApi({ "GET /api/queue": { status: 401, body: { error: "ERR_SESSION_EXPIRED" } } });
    const events: string[] = [];
    const off = onSessionChange((event) => events.push(event));
    await expect(api.get("/queue")).rejects.toBeInstanceOf(ApiError);
    off();
    expect(events).toEqual(["expired"]);
    expect(getToken()).toBeNull();
  });

  it("logs out when the refresh after a 403 is refused", async () => {
    localStorage.setItem("token", "t");
    fakeApi({ "GET /api/queue": { status: 403, body: { error: "ERR_TOKEN_EXPIRED" } } });
    await expect(api.get("/queue")).rejects.toMatchObject({ status: 401 });
    expect(getToken()).toBeNull();
  });
});

describe("refresh across tabs", () => {
  /** A second tab: the same module, loaded again, sharing this window's localStorage. */
  async function anotherTab() {
    vi.resetModules();
    return import("./api-client");
  }

  it("is one refresh for two tabs whose tokens expire together; both end with the new session", async () => {
    localStorage.setItem("token", "old");
    let release: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = fakeApi({
      "POST /api/auth/refresh_token": async () => {
        await answered;
        return { body: { token: "new", user: ADMIN } };
      },
    });
    const first = await anotherTab();
    const second = await anotherTab();
    const seen: unknown[] = [];
    second.onSessionChange((event, token) => seen.push([event, token, second.refreshedUser()]));

    const both = Promise.all([first.refreshSession(), second.refreshSession()]);
    await vi.waitFor(() => expect(server.callsTo("POST", "/api/auth/refresh_token")).toHaveLength(1));
    release();
    expect(await both).toEqual(["new", "new"]);
    // The waiting tab took the first tab's session (and its user) instead of presenting the old cookie again.
    expect(server.callsTo("POST", "/api/auth/refresh_token")).toHaveLength(1);
    expect(seen).toEqual([["refreshed", "new", ADMIN]]);
    expect(getToken()).toBe("new");
  });

  it("refreshes again when the token did not change while it waited", async () => {
    localStorage.setItem("token", "old");
    let next = 0;
    const server = fakeApi({ "POST /api/auth/refresh_token": () => ({ body: { token: `new-${++next}`, user: ADMIN } }) });
    const tab = await anotherTab();
    expect(await tab.refreshSession()).toBe("new-1");
    expect(await tab.refreshSession()).toBe("new-2");
    expect(server.callsTo("POST", "/api/auth/refresh_token")).toHaveLength(2);
  });
});
