import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ClosingChoice, Contact, ContactInput, Ticket } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { api } from "../../../lib/api-client";
import { toast } from "../../../lib/toast";
import { removeTicket } from "../utils/ticket-list-cache";

/** One toast whether the delete is ours or arrives over the socket (spec §4). */
export const TICKET_DELETED_TOAST = "ticket-deleted";

export const createTicket = (input: { contactId: number; userId: number }) =>
  api.post<Ticket>("/tickets", { ...input, status: "open" });

export const deleteTicket = (id: number) => api.delete(`/tickets/${id}`);

/** Issue 23 §6: with the closing reason the ticket's queue asks for. */
export const runProtocol = ({ id, choice = {} }: { id: number; choice?: ClosingChoice }) =>
  api.post<{ protocol: string; webhook: "sent" | "failed" | "skipped"; ticket: Ticket }>(`/tickets/${id}/protocol`, choice);

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
  const { t } = useTranslation();
  return useMutation({
    mutationFn: deleteTicket,
    onSuccess: (_result, id) => {
      toast.success(t("tickets.deleted"), TICKET_DELETED_TOAST);
      removeTicket(client, id);
      navigate("/tickets");
    },
  });
}

export function useProtocol() {
  return useMutation({ mutationFn: runProtocol });
}
