import { MENU_BACK_WORDS, MENU_LIMITS } from "@zapdesk/core";
import type { Db } from "../../db/client.js";
import type { Clock } from "../../lib/clock.js";
import { mediaTypeOf } from "../../media/sniff.js";
import type { ConnectionWithQueues } from "../connections/connections.repo.js";
import { enqueueOutbound } from "../messages/outbound.js";
import { MENU_MIN_INTERVAL_MS, menuText, personalise, pickQueue } from "../messages/queue-menu.js";
import * as ticketsRepo from "../tickets/tickets.repo.js";
import { handToQueue } from "./hand-to-queue.js";
import { loadMenuRows, type MenuNodeRow, type MenuRows } from "./menus.repo.js";

/** A connection and its menu tree, read once per message (or once per batch). */
export interface Menu {
  connection: ConnectionWithQueues;
  rows: MenuRows;
}

export async function loadMenu(tx: Db, connection: ConnectionWithQueues): Promise<Menu> {
  return { connection, rows: await loadMenuRows(tx, connection.id) };
}

/** Whether customers of the connection get a menu (a tree, or the one-level menu of two or more queues). */
export function hasMenu(menu: Menu): boolean {
  return menu.rows.root !== undefined || menu.connection.queues.length >= 2;
}

export interface MenuAnswer {
  ticket: ticketsRepo.TicketRow;
  /** The customer's name (greetings may say it). */
  name: string;
  body: string;
  /** The ticket's preview to keep when the answer hands it over (an answer like "2" is no preview). */
  preview: string;
}

export interface MenuStepResult {
  /** The ticket as it now is. */
  ticket: ticketsRepo.TicketRow;
  /** The messages queued (the menu, an option's text, the queue's greeting). */
  botIds: number[];
}

/** Lower case, no accents, single spaces: how answers and words are compared. */
export function normalise(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();
}

/** A "talk to a person" word said in the answer (as a word: "quero um atendente" says "atendente"). */
export function asksForPerson(body: string, words: string[]): boolean {
  const said = ` ${normalise(body).replace(/[^\p{L}\p{N} ]/gu, " ")} `;
  return words.some((word) => {
    const w = normalise(word);
    return w !== "" && said.includes(` ${w} `);
  });
}

/**
 * The menu step of a customer's message, for both inbound roads (inbound-store.ts one message at a
 * time, inbound-batch.ts per message of a batch): the one place a ticket without a queue or agent
 * is greeted with the menu, walks it and is handed over (docs/menus.md).
 */
export async function menuStep(tx: Db, clock: Clock, menu: Menu, answer: MenuAnswer): Promise<MenuStepResult> {
  const { ticket } = answer;
  const none = { ticket, botIds: [] };
  if (ticket.queueId !== null || ticket.userId !== null || ticket.whatsappId === null) return none;
  if (menu.rows.root) return treeStep(tx, clock, menu, answer);
  return oneLevelStep(tx, clock, menu.connection, answer);
}

/** A connection without a tree: its queues' one-level menu (design §4), as before issue 23 §3. */
async function oneLevelStep(tx: Db, clock: Clock, connection: ConnectionWithQueues, answer: MenuAnswer): Promise<MenuStepResult> {
  const { ticket, name } = answer;
  if (connection.queues.length === 0) return { ticket, botIds: [] };
  if (connection.queues.length === 1) {
    return handToQueue(tx, { ticket, queueId: connection.queues[0].id, name, greet: false });
  }
  const chosen = ticket.menuSentAt ? pickQueue(answer.body, connection.queues) : undefined;
  if (chosen) return handToQueue(tx, { ticket, queueId: chosen.id, name, preview: answer.preview });
  const now = clock.now();
  if (ticket.menuSentAt && now.getTime() - ticket.menuSentAt.getTime() < MENU_MIN_INTERVAL_MS) return { ticket, botIds: [] };
  const sent = await enqueueOutbound(tx, {
    ticket,
    body: menuText(personalise(connection.greetingMessage, name), connection.queues),
    automation: "menu",
  });
  const updated = await ticketsRepo.updateTicket(tx, ticket.id, { menuSentAt: now });
  return { ticket: updated ?? ticket, botIds: [sent.id] };
}

/** The queue a person is reached at: the connection's first queue. */
const personQueue = (menu: Menu) => menu.connection.queues[0]?.id ?? null;

async function treeStep(tx: Db, clock: Clock, menu: Menu, answer: MenuAnswer): Promise<MenuStepResult> {
  const { ticket, name, preview } = answer;
  const root = menu.rows.root as MenuNodeRow;
  const at = ticket.menuNodeId === null ? undefined : menu.rows.byId.get(ticket.menuNodeId);
  // First message, or a place in a tree since replaced: the first level.
  if (at?.target !== "menu" || !ticket.menuSentAt) return ask(tx, clock, menu, ticket, root, name, 0);
  const level = at;
  const hand = (queueId: number | null, userId?: number | null) => handToQueue(tx, { ticket, queueId, userId, name, preview });

  if (asksForPerson(answer.body, level.personWords)) return hand(personQueue(menu));
  const said = normalise(answer.body);
  if ((MENU_BACK_WORDS as readonly string[]).includes(said)) {
    const parent = level.parentId === null ? undefined : menu.rows.byId.get(level.parentId);
    return ask(tx, clock, menu, ticket, parent ?? level, name, parent ? 0 : ticket.menuRetries);
  }
  const option = pickQueue(answer.body, menu.rows.children.get(level.id) ?? []);
  if (!option) {
    // A chatty customer's messages right after the menu are not answers to it.
    const now = clock.now();
    if (now.getTime() - ticket.menuSentAt.getTime() < MENU_MIN_INTERVAL_MS) return { ticket, botIds: [] };
    if (ticket.menuRetries >= MENU_LIMITS.retries) return hand(level.fallbackQueueId ?? personQueue(menu));
    return ask(tx, clock, menu, ticket, level, name, ticket.menuRetries + 1);
  }
  if (option.target === "menu") return ask(tx, clock, menu, ticket, option, name, 0);
  // The option's own text (and file) first, then the hand-over and the queue's greeting.
  const said2 = option.message?.trim() || option.mediaPath ? await send(tx, ticket, option, option.message ?? "", name) : [];
  // A queue or an agent's queue (the person's queue when it was deleted); a person: the first queue.
  const target = option.target === "person" ? personQueue(menu) : (option.queueId ?? personQueue(menu));
  const handed = await hand(target, option.target === "agent" ? option.userId : undefined);
  return { ticket: handed.ticket, botIds: [...said2, ...handed.botIds] };
}

/** Send a level (its text and numbered options) and put the ticket at it. */
async function ask(
  tx: Db,
  clock: Clock,
  menu: Menu,
  ticket: ticketsRepo.TicketRow,
  level: MenuNodeRow,
  name: string,
  retries: number,
): Promise<MenuStepResult> {
  const now = clock.now();
  const header = level.parentId === null ? (level.message ?? menu.connection.greetingMessage) : (level.message ?? level.label);
  const options = (menu.rows.children.get(level.id) ?? []).map((o) => ({ name: o.label }));
  const botIds = await send(tx, ticket, level, menuText(personalise(header, name), options), name);
  const updated = await ticketsRepo.updateTicket(tx, ticket.id, {
    menuNodeId: level.id,
    menuSentAt: now,
    menuRetries: retries,
    menuDeadlineAt: level.timeoutMinutes ? new Date(now.getTime() + level.timeoutMinutes * 60_000) : null,
  });
  return { ticket: updated ?? ticket, botIds };
}

/** One bot message: the text, with the node's file when it has one. */
async function send(tx: Db, ticket: ticketsRepo.TicketRow, node: MenuNodeRow, text: string, name: string): Promise<number[]> {
  const media =
    node.mediaPath && node.mediaName && node.mediaMime
      ? { path: node.mediaPath, name: node.mediaName, mime: node.mediaMime, mediaType: mediaTypeOf(node.mediaMime) }
      : undefined;
  const sent = await enqueueOutbound(tx, { ticket, body: personalise(text, name), automation: "menu", media });
  return [sent.id];
}
