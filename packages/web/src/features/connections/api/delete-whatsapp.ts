import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Connection } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { removeFromArray } from "../../../lib/list-cache";
import { queryKeys } from "../../../lib/query-keys";

export const deleteWhatsapp = (id: number) => api.delete<{ message: string }>(`/whatsapp/${id}`);

export function useDeleteWhatsapp() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteWhatsapp,
    onSuccess: (_data, id) => removeFromArray<Connection>(client, queryKeys.whatsapps.all, id),
  });
}
