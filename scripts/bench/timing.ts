/** Helpers for side-by-side timing: only ratios measured in the same run mean anything on a noisy machine. */
import { readFileSync } from 'node:fs';

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
  const entries = Object.entries(fns);
  const sizes = Object.fromEntries(entries.map(([n, fn]) => [n, calibrate(fn, batchMs)]));
  const out: Record<string, number[]> = Object.fromEntries(entries.map(([n]) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < entries.length; k++) {
      // An index modulo the length: always an entry.
      const entry = entries[(k + r) % entries.length];
      if (!entry) continue;
      const [name, fn] = entry;
      out[name]?.push(timeBatch(fn, sizes[name] ?? 100));
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

/** The machine's CPU time counters (Linux `/proc/stat`, in clock ticks), or undefined elsewhere. */
function cpuTicks(): { steal: number; total: number } | undefined {
  try {
    const fields =
      readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    // user nice system idle iowait irq softirq steal: the eighth is time the hypervisor gave to someone else.
    return { steal: fields[7] ?? 0, total: fields.slice(0, 8).reduce((a, b) => a + b, 0) };
  } catch {
    return undefined;
  }
}

/**
 * Starts a steal meter: the share of this machine's CPU time that its hypervisor took for other guests, from now
 * until the returned function is called (undefined where the system does not tell). On a virtual machine it is what
 * caps parallel speed-ups: two threads on two cores run at the speed of fewer cores when the host takes time away.
 */
export function stealMeter(): () => number | undefined {
  const start = cpuTicks();
  return () => {
    const end = cpuTicks();
    if (!start || !end || end.total === start.total) return undefined;
    return (end.steal - start.steal) / (end.total - start.total);
  };
}

/** A steal share as a percentage: `12% steal`. */
export function formatSteal(share: number | undefined): string {
  return share === undefined
    ? 'steal unknown'
    : `${(share * 100).toFixed(0)}% of the CPU time stolen by the host`;
}
