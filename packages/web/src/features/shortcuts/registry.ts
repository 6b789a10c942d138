import { useEffect, useRef } from "react";

/**
 * Issue 13 item 4: one keyboard-shortcut registry for the whole app. A single `keydown` listener
 * on the document dispatches to the handlers registered for a key, the latest first; a handler
 * answers `false` to let an earlier one have the key (the list's `a` before the ticket pane's).
 */
export interface ShortcutOptions {
  /** Also while typing in an input, textarea or contenteditable (only Esc and Ctrl/⌘+K do). */
  whileTyping?: boolean;
  /** Also while a dialog is open. */
  inDialogs?: boolean;
  /** Ctrl (or ⌘ on a Mac) must be held. */
  mod?: boolean;
}

// biome-ignore lint/suspicious/noConfusingVoidType: a handler that returns nothing took the key.
type Handler = (event: KeyboardEvent) => boolean | undefined | void;
interface Entry {
  key: string;
  options: ShortcutOptions;
  handler: { current: Handler };
}

const entries: Entry[] = [];
let listening = false;

/** The user is typing: an editable field has the focus (the search, the composer, a dialog's form). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  // (jsdom has no isContentEditable: the attribute says it too.)
  if (target.isContentEditable || target.closest('[contenteditable]:not([contenteditable="false"])')) return true;
  const tag = target.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag !== "INPUT") return false;
  const type = (target as HTMLInputElement).type;
  return !["button", "checkbox", "radio", "submit", "reset", "range", "color", "file"].includes(type);
}

/** A modal (dialog, menu, popover) is open: the page's shortcuts must not act behind it. */
export function dialogOpen(): boolean {
  // MUI's modals (dialogs, menus, a select's options, a temporary drawer) share the Modal root.
  const open = '[role="dialog"], [role="alertdialog"], [role="menu"], .MuiModal-root:not(.MuiModal-hidden)';
  return Array.from(document.querySelectorAll(open)).some((element) => !element.closest('[aria-hidden="true"]'));
}

/** The key as registered: "?" "/" "j" "Enter" "Escape" "k" (with `mod`). */
const keyOf = (event: KeyboardEvent) => (event.key.length === 1 ? event.key.toLowerCase() : event.key);

function dispatch(event: KeyboardEvent) {
  if (event.defaultPrevented || event.isComposing) return;
  const key = keyOf(event);
  const mod = event.ctrlKey || event.metaKey;
  const typing = isTyping(event.target);
  const inDialog = dialogOpen();
  for (let i = entries.length - 1; i >= 0; i--) {
    const { options, handler } = entries[i];
    if (entries[i].key !== key || !!options.mod !== mod || event.altKey) continue;
    if (typing && !options.whileTyping) continue;
    if (inDialog && !options.inDialogs) continue;
    if (handler.current(event) === false) continue;
    event.preventDefault();
    return;
  }
}

function register(entry: Entry): () => void {
  entries.push(entry);
  if (!listening) {
    document.addEventListener("keydown", dispatch);
    listening = true;
  }
  return () => {
    const index = entries.indexOf(entry);
    if (index >= 0) entries.splice(index, 1);
    if (!entries.length) {
      document.removeEventListener("keydown", dispatch);
      listening = false;
    }
  };
}

/** Register a shortcut while the component is mounted (and `enabled`); the handler may change freely. */
export function useShortcut(key: string, handler: Handler, options: ShortcutOptions & { enabled?: boolean } = {}) {
  const ref = useRef(handler);
  ref.current = handler;
  const { enabled = true, whileTyping, inDialogs, mod } = options;
  useEffect(() => {
    if (!enabled) return;
    return register({ key, options: { whileTyping, inDialogs, mod }, handler: ref });
  }, [key, enabled, whileTyping, inDialogs, mod]);
}
