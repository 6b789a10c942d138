import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Connection, ConnectionInput } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { upsertInArray } from "../../../lib/list-cache";
import { queryKeys } from "../../../lib/query-keys";

export const createWhatsapp = (input: ConnectionInput) => api.post<Connection>("/whatsapp", input);
/** The provider is fixed once the connection exists (connectionUpdateSchema has no provider). */
export const updateWhatsapp = (id: number, { provider: _provider, ...input }: ConnectionInput) =>
  api.put<Connection>(`/whatsapp/${id}`, input);

export function useSaveWhatsapp() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: ConnectionInput }) =>
      id ? updateWhatsapp(id, input) : createWhatsapp(input),
    onSuccess: (connection) => {
      upsertInArray(client, queryKeys.whatsapps.all, connection);
      // Another connection may have lost its default flag: the list is cheap, read it again.
      client.invalidateQueries({ queryKey: queryKeys.whatsapps.all });
    },
    meta: { handlesErrors: true },
  });
}
