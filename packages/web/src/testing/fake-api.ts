import type { User } from "@zapdesk/core";
import { vi } from "vitest";

export interface FakeRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
}
export type FakeResponse = { status?: number; body?: unknown };
export type Handler = (request: FakeRequest) => FakeResponse | Promise<FakeResponse>;

export const ADMIN: User = {
  id: 1,
  name: "Administrator",
  email: "admin@zapdesk.local",
  profile: "admin",
  queues: [],
  createdAt: "2026-01-01T00:00:00.000Z",
};
export const AGENT: User = { ...ADMIN, id: 2, name: "Agent Smith", email: "agent@zapdesk.local", profile: "user" };

/**
 * Stands in for the HTTP server at the network boundary (global fetch): the app's
 * real API client, query cache and components run unchanged above it.
 */
export function fakeApi(routes: Record<string, Handler | FakeResponse> = {}) {
  const table = new Map<string, Handler | FakeResponse>(
    Object.entries({
      "GET /api/public-settings": { body: [{ key: "userCreation", value: "enabled" }] },
      "POST /api/auth/refresh_token": { status: 401, body: { error: "ERR_SESSION_EXPIRED" } },
      "GET /api/queue": { body: [] },
      "GET /api/whatsapp": { body: [] },
      "GET /api/two-factor/users": { body: { userIds: [] } },
      ...routes,
    }),
  );
  const calls: FakeRequest[] = [];

  function match(method: string, path: string): { handler: Handler | FakeResponse; params: Record<string, string> } | undefined {
    for (const [key, handler] of table) {
      const [m, pattern] = key.split(" ");
      if (m !== method) continue;
      const names: string[] = [];
      const source = pattern.replace(/:(\w+)/g, (_s, name: string) => {
        names.push(name);
        return "([^/]+)";
      });
      const regex = new RegExp(`^${source}$`);
      const found = regex.exec(path);
      if (found) return { handler, params: Object.fromEntries(names.map((n, i) => [n, found[i + 1]])) };
    }
    return undefined;
  }

  const fetchStub = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), "http://localhost");
    const method = init.method ?? "GET";
    const request: FakeRequest = {
      method,
      path: url.pathname,
      params: {},
      query: url.searchParams,
      body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
      headers: (init.headers ?? {}) as Record<string, string>,
    };
    calls.push(request);
    const found = match(method, url.pathname);
    if (!found) return new Response(JSON.stringify({ error: "ERR_NOT_FOUND" }), { status: 404 });
    request.params = found.params;
    const result = typeof found.handler === "function" ? await found.handler(request) : found.handler;
    const status = result.status ?? 200;
    return new Response(result.body === undefined ? null : JSON.stringify(result.body), {
      status,
      headers: { "Content-Type": "application/json" },
    });
  });
  vi.stubGlobal("fetch", fetchStub);

  return {
    calls,
    set(route: string, handler: Handler | FakeResponse) {
      table.set(route, handler);
    },
    callsTo(method: string, path: string) {
      return calls.filter((c) => c.method === method && c.path === path);
    },
  };
}

/** A stored token plus a refresh answer: the app restores this session on load (spec §4). */
export function signedInAs(api: ReturnType<typeof fakeApi>, user: User) {
  localStorage.setItem("token", "access-1");
  api.set("POST /api/auth/refresh_token", { body: { token: "access-2", user } });
}
