import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Connection, ConnectionInput, connectionUpdateSchema } from "@zapdesk/core";
import type { z } from "zod";
import { api } from "../../../lib/api-client";
import { upsertInArray } from "../../../lib/list-cache";
import { queryKeys } from "../../../lib/query-keys";

export type ConnectionUpdate = z.input<typeof connectionUpdateSchema>;

export const createWhatsapp = (input: ConnectionInput) => api.post<Connection>("/whatsapp", input);
/** The provider is fixed once the connection exists; a secret left out keeps its stored value. */
export const updateWhatsapp = (id: number, input: ConnectionUpdate) => api.put<Connection>(`/whatsapp/${id}`, input);

export type SaveWhatsappVariables = { id: number; input: ConnectionUpdate } | { id?: undefined; input: ConnectionInput };

export function useSaveWhatsapp() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (variables: SaveWhatsappVariables) =>
      variables.id ? updateWhatsapp(variables.id, variables.input) : createWhatsapp(variables.input as ConnectionInput),
    onSuccess: (connection) => {
      upsertInArray(client, queryKeys.whatsapps.all, connection);
      client.setQueryData(queryKeys.whatsapps.detail(connection.id), connection);
      // Another connection may have lost its default flag: the list is cheap, read it again.
      client.invalidateQueries({ queryKey: queryKeys.whatsapps.all });
    },
    meta: { handlesErrors: true },
  });
}
