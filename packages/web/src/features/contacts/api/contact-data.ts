import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ContactDataSummary, ContactErased } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { api, apiFetch } from "../../../lib/api-client";
import { removeFromPages } from "../../../lib/list-cache";
import { queryKeys } from "../../../lib/query-keys";
import { toast } from "../../../lib/toast";

/** Issue 22 §2: a customer's data on request (admins). */
export const contactDataKeys = { summary: (id: number) => [...queryKeys.contacts.all, "data-summary", id] as const };

/** GET /contacts/:id/data/summary: what an erasure would remove now (read afresh each time the dialog opens). */
export function useContactDataSummary(id: number, enabled: boolean) {
  return useQuery({
    queryKey: contactDataKeys.summary(id),
    queryFn: () => api.get<ContactDataSummary>(`/contacts/${id}/data/summary`),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
}

/** GET /contacts/:id/data/export: the zip the server streams, saved as a file by the browser. */
export async function downloadContactData(id: number): Promise<void> {
  const response = await apiFetch(`/contacts/${id}/data/export`);
  const filename = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? `contact-${id}.zip`;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function useDownloadContactData() {
  return useMutation({ mutationFn: downloadContactData });
}

/**
 * POST /contacts/:id/data/erase: the contact leaves the lists here; its tickets leave every screen by
 * realtime. The toast is the mutation's own: erased from a ticket's contact drawer, the ticket's
 * deletion arrives before the answer and unmounts the dialog, whose own callbacks are then dropped.
 */
export function useEraseContact() {
  const client = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: ({ id, confirm }: { id: number; confirm: string }) =>
      api.post<ContactErased>(`/contacts/${id}/data/erase`, { confirm }),
    onSuccess: (_data, { id }) => {
      removeFromPages(client, [...queryKeys.contacts.all, "list"], "contacts", id);
      client.removeQueries({ queryKey: queryKeys.contacts.detail(id) });
      toast.success(t("contactData.erased"));
    },
  });
}
