/** A connection's send pacing (minimum gap and random extra, in ms). */
export interface Pacing {
  minGapMs: number;
  jitterMs: number;
}

/**
 * Send pacing per connection (against bans on QR sessions): a send takes the connection's next slot
 * when it starts, and the gap counts again from its end. Sends of a connection therefore start at
 * least a gap apart and a quick one is followed by a full gap, while a send that hangs keeps only the
 * slot it took: the connection's next chat goes a gap later instead of waiting for it.
 */
export function createPacer(random: () => number) {
  const nextAt = new Map<number, number>();
  const gapOf = (pacing: Pacing) => pacing.minGapMs + Math.floor(random() * pacing.jitterMs);
  return {
    /** 0 and the slot is taken; otherwise how long this connection must still wait. */
    take(whatsappId: number, pacing: Pacing): number {
      const wait = (nextAt.get(whatsappId) ?? 0) - Date.now();
      if (wait > 0) return wait;
      const gap = gapOf(pacing);
      if (gap > 0) nextAt.set(whatsappId, Date.now() + gap);
      return 0;
    },
    /** A send finished: the next one waits a gap from now (never less than the slot already taken). */
    finished(whatsappId: number, pacing: Pacing) {
      const gap = gapOf(pacing);
      if (gap > 0) nextAt.set(whatsappId, Math.max(nextAt.get(whatsappId) ?? 0, Date.now() + gap));
    },
  };
}
