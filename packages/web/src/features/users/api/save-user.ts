import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { User, UserCreateInput, UserUpdateInput } from "@zapdesk/core";
import { api } from "../../../lib/api-client";
import { textMatches, upsertInPages } from "../../../lib/list-cache";
import { queryKeys } from "../../../lib/query-keys";

export const createUser = (input: UserCreateInput) => api.post<User>("/users", input);
export const updateUser = (id: number, input: UserUpdateInput) => api.put<User>(`/users/${id}`, input);

/** POST /users or PUT /users/:id; the answer goes into the cached lists at once (the socket event repeats it harmlessly). */
export function useSaveUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: UserCreateInput | UserUpdateInput }) =>
      id ? updateUser(id, input) : createUser(input as UserCreateInput),
    onSuccess: (user) =>
      upsertInPages(client, [...queryKeys.users.all, "list"], "users", user, (u, s) => textMatches(s, u.name, u.email)),
    meta: { handlesErrors: true },
  });
}
