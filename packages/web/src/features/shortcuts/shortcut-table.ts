/**
 * Every shortcut of issue 13, as the overlay lists them (labels: `flow.shortcuts.<id>`).
 * `keys`: what to press, one key per entry ("mod" is Ctrl, or ⌘ on a Mac).
 */
export interface ShortcutInfo {
  id: string;
  keys: string[];
  group: "general" | "list" | "ticket";
}

export const SHORTCUTS: ShortcutInfo[] = [
  { id: "help", keys: ["?"], group: "general" },
  { id: "palette", keys: ["mod", "K"], group: "general" },
  { id: "search", keys: ["/"], group: "general" },
  { id: "close", keys: ["Esc"], group: "general" },
  { id: "next", keys: ["J"], group: "list" },
  { id: "previous", keys: ["K"], group: "list" },
  { id: "open", keys: ["Enter"], group: "list" },
  { id: "accept", keys: ["A"], group: "ticket" },
  { id: "resolve", keys: ["E"], group: "ticket" },
  { id: "transfer", keys: ["T"], group: "ticket" },
  { id: "reply", keys: ["R"], group: "ticket" },
];

export const isMac = () => typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
