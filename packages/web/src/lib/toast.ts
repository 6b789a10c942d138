import { TOAST_AUTO_CLOSE_MS } from "@zapdesk/core";
import { useSyncExternalStore } from "react";

export type ToastKind = "success" | "error" | "info" | "warning";
export interface Toast {
  id: string;
  kind: ToastKind;
  message: string;
}

let toasts: Toast[] = [];
const subscribers = new Set<() => void>();
let sequence = 0;
// One timer per visible toast, cancelled on dismissal so an old timer never closes a newer toast with the same id.
const timers = new Map<string, ReturnType<typeof setTimeout>>();

function emit() {
  for (const subscriber of subscribers) subscriber();
}

export function dismissToast(id: string): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

/**
 * Shows a toast that closes itself after 3000 ms (spec §1). A toast given an id
 * is shown once while visible: the same error code never stacks (spec §8).
 */
function show(kind: ToastKind, message: string, id?: string): string {
  const toastId = id ?? `toast-${++sequence}`;
  if (toasts.some((t) => t.id === toastId)) return toastId;
  toasts = [...toasts, { id: toastId, kind, message }];
  emit();
  timers.set(
    toastId,
    setTimeout(() => dismissToast(toastId), TOAST_AUTO_CLOSE_MS),
  );
  return toastId;
}

export const toast = {
  success: (message: string, id?: string) => show("success", message, id),
  error: (message: string, id?: string) => show("error", message, id),
  info: (message: string, id?: string) => show("info", message, id),
  warning: (message: string, id?: string) => show("warning", message, id),
};

export function useToasts(): Toast[] {
  return useSyncExternalStore(
    (callback) => {
      subscribers.add(callback);
      return () => subscribers.delete(callback);
    },
    () => toasts,
  );
}

/** Drops every toast at once (between tests; the store outlives any component). */
export function clearToasts(): void {
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  toasts = [];
  emit();
}
