import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { TemplateList } from "./get-templates";
import { messageKeys } from "./message-keys";

/** POST /whatsapp/:id/templates/sync: read the templates again from the business account. */
export const syncTemplates = (whatsappId: number) => api.post<TemplateList>(`/whatsapp/${whatsappId}/templates/sync`);

export function useSyncTemplates(whatsappId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => syncTemplates(whatsappId),
    onSuccess: (list) => client.setQueryData(messageKeys.templates(whatsappId), list),
  });
}
