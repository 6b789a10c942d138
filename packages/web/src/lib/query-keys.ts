/**
 * Every cache key in one place: features read through them and the realtime
 * sync writes through them, without either importing the other.
 */
export const queryKeys = {
  users: { all: ["users"] as const, list: (search: string) => ["users", "list", search] as const },
  contacts: {
    all: ["contacts"] as const,
    list: (search: string) => ["contacts", "list", search] as const,
    detail: (id: number) => ["contacts", "detail", id] as const,
  },
  quickAnswers: {
    all: ["quickAnswers"] as const,
    list: (search: string) => ["quickAnswers", "list", search] as const,
  },
  queues: { all: ["queues"] as const },
  tags: { all: ["tags"] as const },
  whatsapps: { all: ["whatsapps"] as const, detail: (id: number) => ["whatsapps", "detail", id] as const },
  settings: { all: ["settings"] as const },
  publicSettings: { all: ["publicSettings"] as const },
} as const;
