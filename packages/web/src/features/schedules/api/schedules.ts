import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Schedule, ScheduleStatus } from "@zapdesk/core";
import { api, apiFetch } from "../../../lib/api-client";

export interface ScheduleFilters {
  status?: ScheduleStatus;
  userId?: number;
  ticketId?: number;
  contactId?: number;
}

/** Every schedule query sits under this key: a `schedule` event refetches them all. */
export const SCHEDULES_KEY = ["schedules"] as const;
export const scheduleListKey = (filters: ScheduleFilters) => [...SCHEDULES_KEY, "list", filters] as const;

interface SchedulePage {
  schedules: Schedule[];
  count: number;
  hasMore: boolean;
}

export function useSchedules(filters: ScheduleFilters, options: { enabled?: boolean } = {}) {
  return useInfiniteQuery({
    queryKey: scheduleListKey(filters),
    queryFn: ({ pageParam }) =>
      api.get<SchedulePage>("/schedules", {
        pageNumber: pageParam,
        status: filters.status,
        userId: filters.userId,
        ticketId: filters.ticketId,
        contactId: filters.contactId,
      }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled: options.enabled ?? true,
  });
}

export interface ScheduleSave {
  /** Editing this one; otherwise a new schedule in `ticketId` or to `contactId`. */
  id?: number;
  ticketId?: number;
  contactId?: number;
  body: string;
  /** ISO date-time with offset. */
  sendAt: string;
  file?: File | null;
  removeMedia?: boolean;
}

/** JSON, or multipart when a file is attached (the server stores it now and sends it at `sendAt`). */
export async function saveSchedule(input: ScheduleSave): Promise<Schedule> {
  const path = input.id ? `/schedules/${input.id}` : "/schedules";
  const method = input.id ? "PUT" : "POST";
  const fields: Record<string, string | number | boolean> = { body: input.body, sendAt: input.sendAt };
  if (!input.id && input.ticketId) fields.ticketId = input.ticketId;
  if (!input.id && input.contactId) fields.contactId = input.contactId;
  if (input.id && input.removeMedia) fields.removeMedia = true;
  if (!input.file) return method === "PUT" ? api.put<Schedule>(path, fields) : api.post<Schedule>(path, fields);
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
  form.append("media", input.file, input.file.name);
  const response = await apiFetch(path, { method, body: form });
  return (await response.json()) as Schedule;
}

export function useSaveSchedule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveSchedule,
    onSuccess: () => client.invalidateQueries({ queryKey: SCHEDULES_KEY }),
    meta: { handlesErrors: true },
  });
}

export function useCancelSchedule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<Schedule>(`/schedules/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: SCHEDULES_KEY }),
  });
}

/** `datetime-local` value (local time, minutes) ⇄ ISO instant. */
export function toLocalInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function fromLocalInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

export function formatSendAt(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
