import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Backup, BackupList, BackupSchedule, ErrorBody } from "@zapdesk/core";
import { ApiError, api, expireSession, refreshSession } from "../../../lib/api-client";
import { getToken } from "../../../lib/token-storage";

const backupKeys = { all: ["backups"] as const };

/** GET /backups: the stored backups, the daily schedule and its last run (admins). */
export function useBackups() {
  return useQuery({ queryKey: backupKeys.all, queryFn: () => api.get<BackupList>("/backups") });
}

/** PUT /backups/schedule */
export function useSaveBackupSchedule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (schedule: BackupSchedule) => api.put<BackupSchedule>("/backups/schedule", schedule),
    onSuccess: () => client.invalidateQueries({ queryKey: backupKeys.all }),
  });
}

/** POST /backups: a backup into the server's backup folder now. */
export function useCreateBackup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<Backup>("/backups"),
    onSuccess: () => client.invalidateQueries({ queryKey: backupKeys.all }),
  });
}

/** The file behind an authenticated GET (the session's token, refreshed once when it expired). */
export async function fetchFile(path: string): Promise<Response> {
  const attempt = () =>
    fetch(`/api${path}`, { credentials: "include", headers: { Authorization: `Bearer ${getToken() ?? ""}` } });
  let response = await attempt();
  if (response.status === 403) {
    const body = (await response
      .clone()
      .json()
      .catch(() => undefined)) as Partial<ErrorBody> | undefined;
    if (body?.error !== "ERR_NO_PERMISSION" && (await refreshSession())) response = await attempt();
  }
  if (response.status === 401) expireSession();
  if (!response.ok) throw new ApiError(response.status, (await response.json().catch(() => undefined)) as Partial<ErrorBody>);
  return response;
}

/** Saves a stored backup (`name`) or a fresh one (no name) as a file in the browser. */
export async function downloadBackup(name?: string): Promise<void> {
  const response = await fetchFile(name ? `/backups/${encodeURIComponent(name)}` : "/backups/download");
  const filename = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? name ?? "zapdesk.zdb";
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function useDownloadBackup() {
  return useMutation({ mutationFn: (name?: string) => downloadBackup(name) });
}
