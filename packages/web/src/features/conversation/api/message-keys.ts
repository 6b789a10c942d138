export const messageKeys = {
  all: ["messages"] as const,
  list: (ticketId: number) => ["messages", ticketId] as const,
  /** The conversation opened on one message (a search result): a list of its own, under the ticket's key. */
  around: (ticketId: number, messageId: number) => ["messages", ticketId, "around", messageId] as const,
  quickAnswers: (search: string) => ["conversation", "quickAnswers", search] as const,
  templates: (whatsappId: number) => ["conversation", "templates", whatsappId] as const,
};
