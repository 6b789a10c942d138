import type { ErrorBody, ErrorDetail } from "@zapdesk/core";
import { getToken, setToken } from "./token-storage";

/** An HTTP failure with the server's error body (design §3). */
export class ApiError extends Error {
  readonly status: number;
  readonly code?: string;
  readonly details?: ErrorDetail[];
  readonly serverMessage?: string;

  constructor(status: number, body: Partial<ErrorBody> | undefined) {
    super(body?.message ?? body?.error ?? `HTTP ${status}`);
    this.status = status;
    this.code = body?.error;
    this.details = body?.details;
    this.serverMessage = body?.message;
  }
}

type SessionListener = (event: "refreshed" | "expired", token: string | null) => void;
const listeners = new Set<SessionListener>();

/** The auth layer listens so a refresh or a forced logout reaches React state. */
export function onSessionChange(listener: SessionListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notify(event: "refreshed" | "expired", token: string | null) {
  for (const listener of listeners) listener(event, token);
}

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** Auth calls handle their own 401/403: a wrong password must not log anyone out. */
  skipSessionHandling?: boolean;
}

function buildUrl(path: string, query?: RequestOptions["query"]): string {
  const url = `/api${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== "") params.set(key, String(value));
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = {};
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  return fetch(buildUrl(path, options.query), {
    method: options.method ?? "GET",
    headers,
    credentials: "include",
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return { message: text };
  }
}

let refreshing: Promise<string | null> | null = null;
let lastSessionUser: unknown = null;

/** The user that came with the latest refresh (the auth layer restores the session from it). */
export function refreshedUser(): unknown {
  return lastSessionUser;
}

// The latest refresh of any tab of this browser: a tab that waited for another one's refresh uses it.
const SHARED_SESSION_KEY = "zapdesk-session";

function readSharedSession(): { token: string; user: unknown } | null {
  try {
    return JSON.parse(localStorage.getItem(SHARED_SESSION_KEY) ?? "null");
  } catch {
    return null;
  }
}

/** Forget this browser's session: the token and what the tabs shared about it. */
export function forgetSession(): void {
  setToken(null);
  localStorage.removeItem(SHARED_SESSION_KEY);
}

/**
 * One refresh for every request that hit an expired token at the same moment, in this tab
 * and across the browser's tabs: the refresh cookie is rotated on use, so a tab that waited
 * for another's refresh takes the result instead of presenting the old cookie again.
 */
export function refreshSession(): Promise<string | null> {
  const stale = getToken();
  refreshing ??= (async () => {
    try {
      return await oneTabAtATime(async () => {
        const current = getToken();
        const shared = readSharedSession();
        if (current && current !== stale && shared?.token === current) {
          lastSessionUser = shared.user;
          notify("refreshed", current);
          return current;
        }
        const response = await fetch("/api/auth/refresh_token", { method: "POST", credentials: "include" });
        if (!response.ok) return null;
        const session = (await response.json()) as { token: string; user: unknown };
        setToken(session.token);
        localStorage.setItem(SHARED_SESSION_KEY, JSON.stringify(session));
        lastSessionUser = session.user;
        notify("refreshed", session.token);
        return session.token;
      });
    } finally {
      queueMicrotask(() => {
        refreshing = null;
      });
    }
  })();
  return refreshing;
}

const LOCK_NAME = "zapdesk-refresh";
const LOCK_TTL_MS = 10_000;
const tabId = Math.random().toString(36).slice(2);

/** Web Locks where the browser has them, else a lock in localStorage that other tabs poll. */
function oneTabAtATime<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === "undefined" ? undefined : navigator.locks;
  if (locks?.request) return locks.request(LOCK_NAME, task);
  return withStorageLock(task);
}

function lockHolder(): { owner: string; expires: number } | null {
  try {
    return JSON.parse(localStorage.getItem(LOCK_NAME) ?? "null");
  } catch {
    return null;
  }
}

async function withStorageLock<T>(task: () => Promise<T>): Promise<T> {
  const giveUpAt = Date.now() + LOCK_TTL_MS;
  for (;;) {
    const holder = lockHolder();
    // A lock left by a closed tab expires; a tab that waited too long goes ahead (the server tolerates it).
    if (!holder || holder.expires < Date.now() || Date.now() > giveUpAt) {
      localStorage.setItem(LOCK_NAME, JSON.stringify({ owner: tabId, expires: Date.now() + LOCK_TTL_MS }));
      await new Promise((resolve) => setTimeout(resolve, 0));
      // Two tabs may have written at once: the last write won, the other waits.
      if (lockHolder()?.owner === tabId) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  try {
    return await task();
  } finally {
    if (lockHolder()?.owner === tabId) localStorage.removeItem(LOCK_NAME);
  }
}

/** Local logout: the server may already have forgotten us (401). */
export function expireSession(): void {
  forgetSession();
  notify("expired", null);
}

// Refreshing cannot help with these 403s: the server reloads the user on every request.
const NOT_REFRESHABLE = new Set(["ERR_NO_PERMISSION", "ERR_USER_CREATION_DISABLED"]);

export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  let response = await send(path, options);
  let body = await readBody(response);
  if (!options.skipSessionHandling && response.status === 403 && !NOT_REFRESHABLE.has((body as ErrorBody)?.error)) {
    const token = await refreshSession();
    if (!token) {
      expireSession();
      throw new ApiError(401, { error: "ERR_SESSION_EXPIRED" });
    }
    response = await send(path, options);
    body = await readBody(response);
  }
  if (!options.skipSessionHandling && response.status === 401) expireSession();
  if (!response.ok) throw new ApiError(response.status, body as Partial<ErrorBody>);
  return body as T;
}

export const api = {
  get: <T>(path: string, query?: RequestOptions["query"]) => request<T>(path, { query }),
  post: <T>(path: string, body?: unknown) => request<T>(path, { method: "POST", body }),
  put: <T>(path: string, body?: unknown) => request<T>(path, { method: "PUT", body }),
  delete: <T>(path: string, body?: unknown) => request<T>(path, { method: "DELETE", body }),
};
