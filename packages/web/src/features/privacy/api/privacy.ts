import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AuditFilter, AuditList, SessionInfo } from "@zapdesk/core";
import { api, apiFetch } from "../../../lib/api-client";

export const privacyKeys = {
  audit: (filter: AuditFilter) => ["audit", filter] as const,
  sessions: ["sessions"] as const,
};

const asQuery = (filter: AuditFilter) =>
  Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined && v !== ""));

/** GET /audit, newest first, one page after another by keyset (`before`). */
export function useAudit(filter: AuditFilter, enabled = true) {
  return useInfiniteQuery({
    enabled,
    queryKey: privacyKeys.audit(filter),
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam }) => api.get<AuditList>("/audit", { ...asQuery(filter), before: pageParam, limit: 50 }),
    getNextPageParam: (last) => last.nextBefore ?? undefined,
  });
}

/** GET /audit/export: the filtered trail as a CSV file the browser saves. */
export async function downloadAudit(filter: AuditFilter): Promise<void> {
  const qs = new URLSearchParams(asQuery(filter) as Record<string, string>).toString();
  const response = await apiFetch(`/audit/export${qs ? `?${qs}` : ""}`);
  const filename = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "audit.csv";
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** GET /sessions: the signed-in user's sessions. */
export function useSessions(enabled = true) {
  return useQuery({
    queryKey: privacyKeys.sessions,
    queryFn: () => api.get<{ sessions: SessionInfo[] }>("/sessions"),
    enabled,
  });
}

/** DELETE /sessions/:id: one of the user's sessions ends at once. */
export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ message: string }>(`/sessions/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: privacyKeys.sessions }),
  });
}

/** DELETE /users/:id/sessions (admins): every session of a user ends. */
export function useEndUserSessions() {
  return useMutation({ mutationFn: (userId: number) => api.delete<{ ended: number }>(`/users/${userId}/sessions`) });
}

/** A short device name from a user agent ("Chrome on Windows"); the raw string is in the tooltip. */
export function deviceOf(userAgent: string): { browser: string; os: string } {
  const ua = userAgent;
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /OPR\/|Opera/.test(ua)
      ? "Opera"
      : /Firefox\//.test(ua)
        ? "Firefox"
        : /Chrome\/|CriOS\//.test(ua)
          ? "Chrome"
          : /Safari\//.test(ua)
            ? "Safari"
            : "";
  const os = /iPhone|iPad|iOS/.test(ua)
    ? "iOS"
    : /Android/.test(ua)
      ? "Android"
      : /Windows/.test(ua)
        ? "Windows"
        : /Mac OS X|Macintosh/.test(ua)
          ? "macOS"
          : /Linux/.test(ua)
            ? "Linux"
            : "";
  return { browser, os };
}
