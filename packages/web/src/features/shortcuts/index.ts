export { KeyboardShortcuts } from "./keyboard-shortcuts";
export { dialogOpen, isTyping, useShortcut } from "./registry";
