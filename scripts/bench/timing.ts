/** Helpers for side-by-side timing: only ratios measured in the same run mean anything on a noisy machine. */

/** Median and spread (min and max) of a list of numbers. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return { median, min: sorted[0] ?? 0, max: sorted.at(-1) ?? 0 };
}

/** Nanoseconds per call of `fn`, over a batch sized to take about `targetMs`. */
function timeBatch(fn: () => unknown, iterations: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn();
  return Number(process.hrtime.bigint() - start) / iterations;
}

/** How many calls take about `targetMs`. */
function calibrate(fn: () => unknown, targetMs: number): number {
  let n = 100;
  while (n < 50_000_000) {
    const ns = timeBatch(fn, n) * n;
    if (ns > (targetMs * 1e6) / 4) return Math.max(100, Math.round((n * targetMs * 1e6) / ns));
    n *= 4;
  }
  return n;
}

/**
 * Times several functions side by side: each round runs every function once (in a rotating order) for a batch of
 * about `batchMs`, so drift on the machine hits them alike. Returns nanoseconds per call, per function, per round.
 */
export function compare(
  fns: Readonly<Record<string, () => unknown>>,
  rounds = 15,
  batchMs = 60,
): Record<string, number[]> {
  const names = Object.keys(fns);
  const sizes = Object.fromEntries(names.map((n) => [n, calibrate(fns[n] as () => unknown, batchMs)]));
  const out: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + r) % names.length] as string;
      out[name]?.push(timeBatch(fns[name] as () => unknown, sizes[name] ?? 100));
    }
  }
  return out;
}

/** Per-round ratios of `a` to `b` (a/b), as a spread. */
export function ratio(a: readonly number[], b: readonly number[]): Spread {
  return spread(a.map((x, i) => x / (b[i] ?? Number.NaN)));
}

/** Formats a spread of ratios: `0.08× (0.07–0.09)`. */
export function formatRatio(s: Spread): string {
  const f = (x: number) => (x >= 10 ? x.toFixed(1) : x.toFixed(2));
  return `${f(s.median)}× (${f(s.min)}–${f(s.max)})`;
}
