const MAX_INTERVALS = 5;

/**
 * The value axis of a count chart: whole numbers from 0, evenly spaced (steps of 1, 2, 5, 10,
 * 20, 50…, at most five intervals), ending at the first tick that reaches the largest count, so
 * the tallest bar nearly fills the chart instead of a quarter of it.
 */
export function countTicks(counts: number[]): number[] {
  const max = Math.max(1, ...counts);
  let step: number | undefined;
  for (let scale = 1; !step; scale *= 10) {
    step = [1, 2, 5].map((m) => m * scale).find((s) => Math.ceil(max / s) <= MAX_INTERVALS);
  }
  const top = Math.ceil(max / step) * step;
  return Array.from({ length: top / step + 1 }, (_, i) => i * step);
}
