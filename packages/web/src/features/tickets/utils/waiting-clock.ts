/**
 * Issue 13: one shared 30 s tick for every "waiting since" timer. Only the timers subscribe, so a
 * tick re-renders them and never the list; no timer runs while nothing waits.
 */
export const WAITING_TICK_MS = 30_000;

const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;
let now = Date.now();

export function subscribeWaitingClock(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, WAITING_TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (!listeners.size && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

export const waitingClockNow = () => now;

/** How long, in whole minutes/hours/days, for the row: "just now", "12 min", "3 h 05", "2 d". */
export function waitingParts(since: string, at: number): { unit: "now" | "min" | "h" | "d"; value: number; rest?: number } {
  const minutes = Math.max(0, Math.floor((at - new Date(since).getTime()) / 60_000));
  if (minutes < 1) return { unit: "now", value: 0 };
  if (minutes < 60) return { unit: "min", value: minutes };
  if (minutes < 24 * 60) return { unit: "h", value: Math.floor(minutes / 60), rest: minutes % 60 };
  return { unit: "d", value: Math.floor(minutes / (24 * 60)) };
}
