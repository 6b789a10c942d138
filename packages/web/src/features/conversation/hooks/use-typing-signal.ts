import { useCallback, useEffect, useRef } from "react";
import { emitTyping } from "../../../lib/socket";

/** "composing" again at most this often while the agent keeps typing (WhatsApp lets the indicator fade otherwise). */
export const TYPING_REFRESH_MS = 3000;
/** "paused" after this long without a keystroke. */
export const TYPING_IDLE_MS = 3000;

type Emit = (ticketId: number, state: "composing" | "paused") => void;

/**
 * The customer sees "typing…" while the agent types: `typed` on each keystroke (throttled),
 * `stop` on send or blur; leaving the ticket stops too. Does nothing where the connection cannot.
 */
export function useTypingSignal(ticketId: number, enabled: boolean, emit: Emit = emitTyping) {
  const composingSince = useRef<number | null>(null);
  const idleTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const stop = useCallback(() => {
    clearTimeout(idleTimer.current);
    if (composingSince.current === null) return;
    composingSince.current = null;
    emit(ticketId, "paused");
  }, [ticketId, emit]);

  const typed = useCallback(() => {
    if (!enabled) return;
    const now = Date.now();
    if (composingSince.current === null || now - composingSince.current >= TYPING_REFRESH_MS) {
      composingSince.current = now;
      emit(ticketId, "composing");
    }
    clearTimeout(idleTimer.current);
    idleTimer.current = setTimeout(stop, TYPING_IDLE_MS);
  }, [enabled, ticketId, emit, stop]);

  useEffect(() => stop, [stop]);

  return { typed, stop };
}
