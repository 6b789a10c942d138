import type { TicketStatus } from "@zapdesk/core";

/** What one ticket list asks the server for; a search list has a text and no status. */
export interface TicketListParams {
  status?: TicketStatus;
  searchParam: string;
  showAll: boolean;
  queueIds: number[];
}

export const ticketKeys = {
  all: ["tickets"] as const,
  lists: () => ["tickets", "list"] as const,
  list: (params: TicketListParams) => ["tickets", "list", params] as const,
  detail: (id: number) => ["tickets", "detail", id] as const,
};
