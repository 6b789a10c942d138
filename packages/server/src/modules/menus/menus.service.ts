import { type Actor, can, MENU_LIMITS, type MenuOption, type MenuResponse, type MenuTree } from "@zapdesk/core";
import { and, eq, inArray, ne } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { messages, queues, users, whatsapps } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import type { MediaStorage } from "../../media/storage.js";
import type { Publisher } from "../../realtime/publisher.js";
import { recordAudit } from "../audit/audit.js";
import { loadMenuRows, presentMenu, replaceMenu } from "./menus.repo.js";

/** Every option of a tree with its depth (the root's options are at depth 1). */
function walk(options: MenuOption[], depth = 1): { option: MenuOption; depth: number }[] {
  return options.flatMap((option) => [{ option, depth }, ...walk(option.options, depth + 1)]);
}

/** The limits and targets a tree must respect; nested, so a cycle cannot be written. */
function check(tree: MenuTree) {
  const all = walk(tree.options);
  if (all.some((o) => o.depth > MENU_LIMITS.depth)) throw new AppError("ERR_MENU_TOO_DEEP");
  const levels = [tree.options, ...all.map((o) => o.option.options)];
  if (levels.some((level) => level.length > MENU_LIMITS.options)) throw new AppError("ERR_MENU_TOO_MANY_OPTIONS");
  if (tree.options.length === 0 || all.some((o) => o.option.target === "menu" && o.option.options.length === 0)) {
    throw new AppError("ERR_MENU_EMPTY_LEVEL");
  }
  for (const { option } of all) {
    if (option.target === "queue" && option.queueId === null) throw new AppError("ERR_MENU_TARGET_MISSING");
    if (option.target === "agent" && option.userId === null) throw new AppError("ERR_MENU_TARGET_MISSING");
  }
  return all.map((o) => o.option);
}

/**
 * Issue 23 §3: a connection's menu tree (docs/menus.md). Whoever manages connections
 * (`connections:manage`) reads and writes it; the tree is replaced whole in one transaction.
 */
export function createMenuService(deps: { db: Db; events: Publisher; storage: MediaStorage }) {
  const { db, events } = deps;

  function mayManage(actor: Actor) {
    if (!can(actor, "connections:manage")) throw new AppError("ERR_NO_PERMISSION");
  }

  async function connectionExists(executor: Db, id: number) {
    const [row] = await executor.select({ id: whatsapps.id }).from(whatsapps).where(eq(whatsapps.id, id));
    if (!row) throw new AppError("ERR_NO_WAPP_FOUND");
  }

  /** Queues and agents named by the tree exist; files are the menu's own uploads, never a conversation's. */
  async function targetsExist(tx: Db, tree: MenuTree, options: MenuOption[]) {
    const levels = [tree, ...options];
    const queueIds = [
      ...new Set(levels.flatMap((l) => [l.timeoutQueueId, l.fallbackQueueId]).concat(options.map((o) => o.queueId))),
    ].filter((id): id is number => id !== null);
    const userIds = [...new Set(options.map((o) => o.userId))].filter((id): id is number => id !== null);
    const foundQueues = queueIds.length
      ? await tx.select({ id: queues.id }).from(queues).where(inArray(queues.id, queueIds))
      : [];
    const foundUsers = userIds.length ? await tx.select({ id: users.id }).from(users).where(inArray(users.id, userIds)) : [];
    if (foundQueues.length < queueIds.length || foundUsers.length < userIds.length)
      throw new AppError("ERR_MENU_TARGET_NOT_FOUND");
    const paths = levels.flatMap((l) => (l.media ? [l.media.path] : []));
    if (paths.length === 0) return;
    const theirs = await tx
      .select({ path: messages.mediaPath })
      .from(messages)
      .where(and(inArray(messages.mediaPath, paths), ne(messages.fromBot, true)))
      .limit(1);
    // A conversation's file (a customer's or an agent's) is never a menu's.
    if (theirs.length > 0) throw new AppError("ERR_MENU_MEDIA_NOT_FOUND");
    for (const path of paths) {
      const file = await deps.storage.open(path).catch(() => undefined);
      if (!file) throw new AppError("ERR_MENU_MEDIA_NOT_FOUND");
      file.stream.destroy();
    }
  }

  async function get(actor: Actor, whatsappId: number): Promise<MenuResponse> {
    mayManage(actor);
    await connectionExists(db, whatsappId);
    return { whatsappId, menu: presentMenu(await loadMenuRows(db, whatsappId)) };
  }

  return {
    get,

    /** Replace the tree (null: back to the one-level menu of the connection's queues). */
    async put(actor: Actor, whatsappId: number, tree: MenuTree | null): Promise<MenuResponse> {
      mayManage(actor);
      const options = tree ? check(tree) : [];
      await db.transaction(async (tx) => {
        await connectionExists(tx, whatsappId);
        if (tree) await targetsExist(tx, tree, options);
        await replaceMenu(tx, whatsappId, tree);
        await recordAudit(tx, {
          action: "menu.updated",
          targetType: "whatsapp",
          targetId: whatsappId,
          details: { options: options.length, removed: tree === null },
        });
      });
      const menu = await get(actor, whatsappId);
      events.publish("menu", { action: "update", menu });
      return menu;
    },
  };
}

export type MenuService = ReturnType<typeof createMenuService>;
