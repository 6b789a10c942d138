import { useQuery } from "@tanstack/react-query";
import type { Template } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { messageKeys } from "./message-keys";

export interface TemplateList {
  templates: Template[];
  syncedAt: string | null;
}

/** GET /whatsapp/:id/templates: the approved templates of a Cloud API connection, as last synced. */
export const getTemplates = (whatsappId: number) => api.get<TemplateList>(`/whatsapp/${whatsappId}/templates`);

export function useTemplates(whatsappId: number) {
  return useQuery({ queryKey: messageKeys.templates(whatsappId), queryFn: () => getTemplates(whatsappId), staleTime: 60_000 });
}
