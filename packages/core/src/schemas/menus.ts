import { z } from "zod";
import { idSchema, MSG } from "./common.js";

/**
 * Issue 23 §3: a connection's menu tree (docs/menus.md). The tree is sent and stored nested, so a
 * cycle cannot be written; the server refuses a tree deeper than MENU_LIMITS.depth levels or a level
 * with more than MENU_LIMITS.options options (coded errors, see errors.ts).
 */
export const MENU_TARGETS = ["menu", "queue", "agent", "person"] as const;
export type MenuTarget = (typeof MENU_TARGETS)[number];

export const MENU_LIMITS = {
  /** Levels below the root's (the root's options are level 1). */
  depth: 5,
  options: 20,
  /** Invalid answers re-asked at a level before the fallback queue. */
  retries: 2,
  words: 20,
} as const;

/** The "talk to a person" words the editor suggests for a new level. */
export const DEFAULT_PERSON_WORDS = ["atendente", "humano", "pessoa"] as const;
/** Answers that go back one level. */
export const MENU_BACK_WORDS = ["0", "voltar"] as const;

export const menuMediaSchema = z.strictObject({
  path: z.string().min(1).max(500),
  name: z.string().min(1).max(255),
  mime: z.string().min(1).max(255),
});
export type MenuMedia = z.infer<typeof menuMediaSchema>;

const word = z.string().trim().min(1, MSG.required).max(60, MSG.tooLong);

/** What every level has: its text, words, timeout and fallback. */
const levelFields = {
  /** Sent when the level is entered (the root's null: the connection's greeting); an option's header. */
  message: z.string().max(4096, MSG.tooLong).nullable().default(null),
  media: menuMediaSchema.nullable().default(null),
  personWords: z.array(word).max(100).default([]),
  /** No answer in this many minutes: the ticket goes to timeoutQueueId (else the connection's first queue). */
  timeoutMinutes: z.number().int().min(1).max(10080).nullable().default(null),
  timeoutQueueId: idSchema.nullable().default(null),
  /** After two invalid answers re-asked, the ticket goes here (else the connection's first queue). */
  fallbackQueueId: idSchema.nullable().default(null),
};

export interface MenuOption {
  id?: number;
  label: string;
  message: string | null;
  media: MenuMedia | null;
  target: MenuTarget;
  queueId: number | null;
  userId: number | null;
  personWords: string[];
  timeoutMinutes: number | null;
  timeoutQueueId: number | null;
  fallbackQueueId: number | null;
  options: MenuOption[];
}

/** What the API accepts for an option (defaults filled in: MenuOption). */
export interface MenuOptionInput {
  id?: number;
  label: string;
  target: MenuTarget;
  queueId?: number | null;
  userId?: number | null;
  message?: string | null;
  media?: MenuMedia | null;
  personWords?: string[];
  timeoutMinutes?: number | null;
  timeoutQueueId?: number | null;
  fallbackQueueId?: number | null;
  options?: MenuOptionInput[];
}

export const menuOptionSchema: z.ZodType<MenuOption, MenuOptionInput> = z.lazy(() =>
  z.strictObject({
    id: idSchema.optional(),
    label: z.string().trim().min(1, MSG.required).max(200, MSG.tooLong),
    target: z.enum(MENU_TARGETS),
    queueId: idSchema.nullable().default(null),
    userId: idSchema.nullable().default(null),
    ...levelFields,
    options: z.array(menuOptionSchema).max(100).default([]),
  }),
);

export const menuTreeSchema = z.strictObject({
  ...levelFields,
  options: z.array(menuOptionSchema).max(100).default([]),
});
export type MenuTree = z.output<typeof menuTreeSchema>;
export type MenuTreeInput = z.input<typeof menuTreeSchema>;

/** PUT /whatsapp/:id/menu: the whole tree, or null to go back to the one-level menu of the connection's queues. */
export const menuPutSchema = z.strictObject({ menu: menuTreeSchema.nullable() });
export const menuResponseSchema = z.strictObject({
  whatsappId: z.number(),
  menu: menuTreeSchema.nullable(),
});
export type MenuResponse = z.output<typeof menuResponseSchema>;

/** "*1* - Vendas" lines under the level's text: what the customer gets (the server and the editor's preview). */
export function menuLevelText(header: string, labels: string[]): string {
  const options = labels.map((label, index) => `*${index + 1}* - ${label}`).join("\n");
  return `${header.trim()}\n${options}`;
}
