import type { TicketStatus } from "@zapdesk/core";

/** What one ticket list asks the server for; a search list has a text and no status. */
export interface TicketListParams {
  status?: TicketStatus;
  searchParam: string;
  showAll: boolean;
  /**
   * The ticked queues; `[]` (nothing ticked) leaves only the user's own tickets; `null` is no queue
   * filter (a user without queues). The server reads `queueIds` the same way (issue 12, item 20).
   */
  queueIds: number[] | null;
  /** Issue 11: tickets with any of these tags; absent or empty, no tag filter. */
  tagIds?: number[];
  /** Issue 13: the Waiting list oldest first (the server's `sort=oldest`); absent is newest first. */
  sort?: "oldest";
  /** Issue 23 §5: only the tickets of the user's own customers (the server's `myCustomers=true`). */
  myCustomers?: boolean;
}

export const ticketKeys = {
  all: ["tickets"] as const,
  lists: () => ["tickets", "list"] as const,
  list: (params: TicketListParams) => ["tickets", "list", params] as const,
  detail: (id: number) => ["tickets", "detail", id] as const,
  /** Set (client-side only) when a ticket this user had left their hands: its chat says so. */
  movedAway: (id: number) => ["tickets", "movedAway", id] as const,
};
