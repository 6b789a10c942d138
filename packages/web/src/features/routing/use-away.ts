import { useEffect, useSyncExternalStore } from "react";
import { emitPresence } from "../../lib/socket";

/** No keyboard, pointer or focus for this long (or the tab hidden this long): the agent is away. */
export const IDLE_AFTER_MS = 5 * 60 * 1000;
const MANUAL_KEY = "zapdesk.away";

const listeners = new Set<() => void>();
let manualAway = typeof localStorage !== "undefined" && localStorage.getItem(MANUAL_KEY) === "1";

/** The user's own "Away" choice from the user menu (kept across reloads, per browser). */
export function setManualAway(away: boolean): void {
  manualAway = away;
  if (away) localStorage.setItem(MANUAL_KEY, "1");
  else localStorage.removeItem(MANUAL_KEY);
  for (const listener of listeners) listener();
}

export function useManualAway(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => manualAway,
  );
}

/**
 * Issue 13: tells the server this tab is away (idle, hidden for long, or "Away" chosen) or online,
 * on every change and again after each reconnection. The server combines the user's tabs.
 */
export function useAwayReporting(enabled: boolean, idleAfterMs = IDLE_AFTER_MS): void {
  const manual = useManualAway();
  useEffect(() => {
    if (!enabled) return;
    let idle = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const report = () => emitPresence(manual || idle ? "away" : "online");
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        idle = true;
        report();
      }, idleAfterMs);
    };
    const active = () => {
      if (document.visibilityState === "hidden") return;
      if (idle) {
        idle = false;
        report();
      }
      arm();
    };
    const events = ["keydown", "pointerdown", "pointermove", "wheel", "focus"] as const;
    for (const name of events) window.addEventListener(name, active, { passive: true });
    document.addEventListener("visibilitychange", active);
    arm();
    report();
    return () => {
      clearTimeout(timer);
      for (const name of events) window.removeEventListener(name, active);
      document.removeEventListener("visibilitychange", active);
    };
  }, [enabled, manual, idleAfterMs]);
}
