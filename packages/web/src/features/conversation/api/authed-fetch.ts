import type { ErrorBody } from "@zapdesk/core";
import { ApiError, expireSession, refreshSession } from "../../../lib/api-client";
import { getToken } from "../../../lib/token-storage";

/**
 * Requests the JSON client does not make: multipart uploads and binary media. Same
 * session rules as the api client: a 403 refreshes once and retries, a 401 logs out.
 */
export async function authedFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const attempt = () => {
    const token = getToken();
    return fetch(`/api${path}`, {
      ...init,
      credentials: "include",
      headers: token ? { Authorization: `Bearer ${token}` } : undefined,
    });
  };
  let response = await attempt();
  if (response.status === 403) {
    const body = (await response
      .clone()
      .json()
      .catch(() => undefined)) as Partial<ErrorBody> | undefined;
    if (body?.error !== "ERR_NO_PERMISSION") {
      if (!(await refreshSession())) {
        expireSession();
        throw new ApiError(401, { error: "ERR_SESSION_EXPIRED" });
      }
      response = await attempt();
    }
  }
  if (response.status === 401) expireSession();
  if (!response.ok) {
    const body = (await response.json().catch(() => undefined)) as Partial<ErrorBody> | undefined;
    throw new ApiError(response.status, body);
  }
  return response;
}

/** Media is served only to an authenticated request (design §4): never a bare <img src>. */
export async function fetchMediaBlob(mediaUrl: string): Promise<Blob> {
  const response = await authedFetch(mediaUrl.replace(/^\/api/, ""));
  return response.blob();
}
