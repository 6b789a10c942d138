import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Contact, ContactInput, Ticket } from "@zapdesk/core";
import { useNavigate } from "react-router";
import { api } from "../../../lib/api-client";
import { removeTicket } from "../utils/ticket-list-cache";

export const createTicket = (input: { contactId: number; userId: number }) =>
  api.post<Ticket>("/tickets", { ...input, status: "open" });

export const deleteTicket = (id: number) => api.delete(`/tickets/${id}`);

export const runProtocol = (id: number) =>
  api.post<{ protocol: string; webhook: "sent" | "failed" | "skipped"; ticket: Ticket }>(`/tickets/${id}/protocol`);

export const createContact = (input: ContactInput) => api.post<Contact>("/contacts", input);

export function useCreateTicket() {
  const navigate = useNavigate();
  return useMutation({
    mutationFn: createTicket,
    onSuccess: (ticket) => navigate(`/tickets/${ticket.id}`),
  });
}

export function useDeleteTicket() {
  const client = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: deleteTicket,
    onSuccess: (_result, id) => {
      removeTicket(client, id);
      navigate("/tickets");
    },
  });
}

export function useProtocol() {
  return useMutation({ mutationFn: runProtocol });
}
