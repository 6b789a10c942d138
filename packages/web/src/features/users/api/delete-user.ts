import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { removeFromPages } from "../../../lib/list-cache";
import { queryKeys } from "../../../lib/query-keys";

export const deleteUser = (id: number) => api.delete<{ message: string }>(`/users/${id}`);

export function useDeleteUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: (_data, id) => removeFromPages(client, [...queryKeys.users.all, "list"], "users", id),
  });
}
