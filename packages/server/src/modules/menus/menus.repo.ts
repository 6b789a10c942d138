import type { MenuOption, MenuTree } from "@zapdesk/core";
import { asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { menuNodes } from "../../db/schema.js";

export type MenuNodeRow = typeof menuNodes.$inferSelect;

/** A connection's menu tree as rows: the root and each level's options in order. */
export interface MenuRows {
  root: MenuNodeRow | undefined;
  byId: Map<number, MenuNodeRow>;
  /** A level's options (`position` order), by the level's node id. */
  children: Map<number, MenuNodeRow[]>;
}

export async function loadMenuRows(db: Db, whatsappId: number): Promise<MenuRows> {
  const rows = await db
    .select()
    .from(menuNodes)
    .where(eq(menuNodes.whatsappId, whatsappId))
    .orderBy(asc(menuNodes.position), asc(menuNodes.id));
  const children = new Map<number, MenuNodeRow[]>();
  for (const row of rows) {
    if (row.parentId === null) continue;
    children.set(row.parentId, [...(children.get(row.parentId) ?? []), row]);
  }
  return { root: rows.find((r) => r.parentId === null), byId: new Map(rows.map((r) => [r.id, r])), children };
}

type Level = Omit<MenuTree, "options">;

function levelOf(row: MenuNodeRow): Level {
  return {
    message: row.message,
    media:
      row.mediaPath && row.mediaName && row.mediaMime ? { path: row.mediaPath, name: row.mediaName, mime: row.mediaMime } : null,
    personWords: row.personWords,
    timeoutMinutes: row.timeoutMinutes,
    timeoutQueueId: row.timeoutQueueId,
    fallbackQueueId: row.fallbackQueueId,
  };
}

/** The nested tree the API and the editor read; null without one. */
export function presentMenu(rows: MenuRows): MenuTree | null {
  if (!rows.root) return null;
  const optionsOf = (id: number): MenuOption[] =>
    (rows.children.get(id) ?? []).map((row) => ({
      id: row.id,
      label: row.label,
      target: row.target,
      queueId: row.queueId,
      userId: row.userId,
      ...levelOf(row),
      options: optionsOf(row.id),
    }));
  return { ...levelOf(rows.root), options: optionsOf(rows.root.id) };
}

const levelValues = (level: Level) => ({
  message: level.message,
  mediaPath: level.media?.path ?? null,
  mediaName: level.media?.name ?? null,
  mediaMime: level.media?.mime ?? null,
  personWords: level.personWords,
  timeoutMinutes: level.timeoutMinutes,
  timeoutQueueId: level.timeoutQueueId,
  fallbackQueueId: level.fallbackQueueId,
});

/**
 * Replace a connection's tree in the caller's transaction (null: remove it). Rows are written
 * afresh, so tickets in the middle of the old tree lose their place (their foreign key is set
 * null) and get the new root level at their next message.
 */
export async function replaceMenu(tx: Db, whatsappId: number, tree: MenuTree | null): Promise<void> {
  await tx.delete(menuNodes).where(eq(menuNodes.whatsappId, whatsappId));
  if (!tree) return;
  const [root] = await tx
    .insert(menuNodes)
    .values({ whatsappId, parentId: null, position: 0, target: "menu", ...levelValues(tree) })
    .returning({ id: menuNodes.id });
  let level: { parentId: number; options: MenuOption[] }[] = [{ parentId: root.id, options: tree.options }];
  // One insert per depth: every option of a depth at once, in order (ids follow the values' order).
  while (level.length > 0) {
    const options = level.flatMap(({ parentId, options }) => options.map((option, position) => ({ parentId, position, option })));
    if (options.length === 0) break;
    const inserted = await tx
      .insert(menuNodes)
      .values(
        options.map(({ parentId, position, option }) => ({
          whatsappId,
          parentId,
          position,
          label: option.label,
          target: option.target,
          queueId: option.queueId,
          userId: option.userId,
          ...levelValues(option),
        })),
      )
      .returning({ id: menuNodes.id });
    level = options.map(({ option }, i) => ({ parentId: inserted[i].id, options: option.options }));
  }
}
