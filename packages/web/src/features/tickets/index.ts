export { useTicket } from "./api/get-ticket";
export { ticketKeys } from "./api/ticket-keys";
export { ContactDrawer } from "./components/contact-drawer";
export { TicketHeader } from "./components/ticket-header";
export { TicketsManager } from "./components/tickets-manager";
export { useTicketRealtimeHandlers } from "./hooks/use-ticket-realtime-handlers";
