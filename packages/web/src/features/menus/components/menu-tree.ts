import { DEFAULT_PERSON_WORDS, type MenuOptionInput, type MenuTreeInput, menuLevelText } from "@zapdesk/core";

/** A path to an option: its index at each level from the root's options. */
export type OptionPath = number[];

export const newOption = (label = ""): MenuOptionInput => ({ label, target: "queue", queueId: null, options: [] });

/** A tree for a connection without one: its queues' one-level menu, as customers get it today. */
export function startingTree(queues: { id: number; name: string }[]): MenuTreeInput {
  return {
    message: null,
    personWords: [...DEFAULT_PERSON_WORDS],
    options: queues.length ? queues.map((q) => ({ ...newOption(q.name), queueId: q.id })) : [newOption()],
  };
}

type Level = { options?: MenuOptionInput[] };

/** A copy of `level` with the options at `path`'s parent level replaced by `change(options)`. */
export function updateOptions<T extends Level>(
  level: T,
  path: OptionPath,
  change: (options: MenuOptionInput[]) => MenuOptionInput[],
): T {
  const options = level.options ?? [];
  if (path.length === 0) return { ...level, options: change(options) };
  const [head, ...rest] = path;
  return { ...level, options: options.map((o, i) => (i === head ? updateOptions(o, rest, change) : o)) };
}

export function updateOption<T extends Level>(tree: T, path: OptionPath, patch: Partial<MenuOptionInput>): T {
  const parent = path.slice(0, -1);
  const index = path[path.length - 1];
  return updateOptions(tree, parent, (options) => options.map((o, i) => (i === index ? { ...o, ...patch } : o)));
}

export function removeOption<T extends Level>(tree: T, path: OptionPath): T {
  const index = path[path.length - 1];
  return updateOptions(tree, path.slice(0, -1), (options) => options.filter((_, i) => i !== index));
}

export function moveOption<T extends Level>(tree: T, path: OptionPath, by: -1 | 1): T {
  const index = path[path.length - 1];
  return updateOptions(tree, path.slice(0, -1), (options) => {
    const to = index + by;
    if (to < 0 || to >= options.length) return options;
    const copy = [...options];
    [copy[index], copy[to]] = [copy[to], copy[index]];
    return copy;
  });
}

/** What the customer gets at a level: its text, then "*1* - label" lines (the server's own function). */
export function levelPreview(header: string, options: MenuOptionInput[] | undefined): string {
  return menuLevelText(
    header,
    (options ?? []).map((o) => o.label || "…"),
  );
}
