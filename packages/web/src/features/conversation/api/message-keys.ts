export const messageKeys = {
  all: ["messages"] as const,
  list: (ticketId: number) => ["messages", ticketId] as const,
  quickAnswers: (search: string) => ["conversation", "quickAnswers", search] as const,
  templates: (whatsappId: number) => ["conversation", "templates", whatsappId] as const,
};
