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

function withQuery(path: string, query?: RequestOptions["query"]): string {
  const url = path;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== "") params.set(key, String(value));
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
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

/** The one answer that means "refresh and retry": the access token expired (403 ERR_TOKEN_EXPIRED, design §3). */
async function tokenExpired(response: Response): Promise<boolean> {
  if (response.status !== 403) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as Partial<ErrorBody> | undefined;
  return body?.error === "ERR_TOKEN_EXPIRED";
}

export interface FetchOptions extends Omit<RequestInit, "headers" | "credentials"> {
  headers?: Record<string, string>;
  /** Auth calls handle their own 401/403: a wrong password must not log anyone out. */
  skipSessionHandling?: boolean;
}

/**
 * The one HTTP client of the app (JSON calls, uploads, media, downloads): the session's token as a
 * Bearer header; an expired token refreshes once (one refresh for every request that hit it at the
 * same moment) and the request is retried; a 401 logs out. Any other failure is an ApiError.
 */
export async function apiFetch(path: string, init: FetchOptions = {}): Promise<Response> {
  const { skipSessionHandling, headers, ...rest } = init;
  const attempt = () => {
    const token = getToken();
    return fetch(`/api${path}`, {
      ...rest,
      credentials: "include",
      headers: { ...headers, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    });
  };
  let response = await attempt();
  if (!skipSessionHandling && (await tokenExpired(response))) {
    if (!(await refreshSession())) {
      expireSession();
      throw new ApiError(401, { error: "ERR_SESSION_EXPIRED" });
    }
    response = await attempt();
  }
  if (!skipSessionHandling && response.status === 401) expireSession();
  if (!response.ok) throw new ApiError(response.status, (await readBody(response)) as Partial<ErrorBody>);
  return response;
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await apiFetch(withQuery(path, options.query), {
    method: options.method ?? "GET",
    headers: options.body !== undefined ? { "Content-Type": "application/json" } : undefined,
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    skipSessionHandling: options.skipSessionHandling,
  });
  return (await readBody(response)) as T;
}

/** Media is served only to an authenticated request (design §4): never a bare <img src>. */
export async function fetchMediaBlob(mediaUrl: string): Promise<Blob> {
  return (await apiFetch(mediaUrl.replace(/^\/api/, ""))).blob();
}

export const api = {
  get: <T>(path: string, query?: RequestOptions["query"]) => request<T>(path, { query }),
  post: <T>(path: string, body?: unknown) => request<T>(path, { method: "POST", body }),
  put: <T>(path: string, body?: unknown) => request<T>(path, { method: "PUT", body }),
  delete: <T>(path: string, body?: unknown) => request<T>(path, { method: "DELETE", body }),
};
