import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MenuMedia, MenuResponse, MenuTreeInput, User } from "@zapdesk/core";
import { api, apiFetch } from "../../../lib/api-client";

/** Issue 23 §3: a connection's menu tree (docs/menus.md). */
export const menuKeys = { of: (whatsappId: number) => ["menus", whatsappId] as const };

export function useMenu(whatsappId: number | undefined) {
  return useQuery({
    queryKey: menuKeys.of(whatsappId ?? 0),
    queryFn: () => api.get<MenuResponse>(`/whatsapp/${whatsappId}/menu`),
    enabled: !!whatsappId,
    staleTime: 0,
  });
}

export function useSaveMenu(whatsappId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (menu: MenuTreeInput | null) => api.put<MenuResponse>(`/whatsapp/${whatsappId}/menu`, { menu }),
    onSuccess: (saved) => client.setQueryData(menuKeys.of(whatsappId), saved),
  });
}

/** Store a file for an option (the answer names it in the option's `media`). */
export async function uploadMenuMedia(whatsappId: number, file: File): Promise<MenuMedia> {
  const form = new FormData();
  form.append("media", file, file.name);
  const response = await apiFetch(`/whatsapp/${whatsappId}/menu/media`, { method: "POST", body: form });
  return (await response.json()) as MenuMedia;
}

/** The agents an option may hand over to. */
export function useMenuAgents(enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: ["menus", "users"],
    queryFn: () => api.get<{ users: User[] }>("/users", { searchParam: "" }),
    select: (d) => d.users,
  });
}
