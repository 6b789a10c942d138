import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

/** Spec §4: a ticket started from a contact is created open and assigned to oneself. */
export const startTicket = (input: { contactId: number; userId: number }) =>
  api.post<{ id: number }>("/tickets", { ...input, status: "open" });

export function useStartTicket() {
  return useMutation({ mutationFn: startTicket });
}
