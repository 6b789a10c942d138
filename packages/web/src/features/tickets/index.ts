export { useTicket } from "./api/get-ticket";
export { TICKET_DELETED_TOAST } from "./api/ticket-commands";
export { ticketKeys } from "./api/ticket-keys";
export { updateTicketMutationKey } from "./api/update-ticket";
export { ContactDrawer } from "./components/contact-drawer";
export { TicketHeader } from "./components/ticket-header";
export { TicketsManager } from "./components/tickets-manager";
export { useTicketRealtimeHandlers } from "./hooks/use-ticket-realtime-handlers";
