// Bounds: the lower and upper limits on a number, a string's length, an array's items and an object's properties.
// Every bound is compared the same way (which side is looser), and its witness is a value just past the tight one.
import { isRecord } from '../../util/json.js';
import { sample } from '../sample.js';
import { type Mutation, WITNESS_KEY } from './found-change.js';
import type { Here } from './handler.js';

/** The keywords that set a lower bound. */
export const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
/** The keywords that set an upper bound. */
export const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];

/** Compares every bound of two nodes: tightened or loosened (an absent bound is the loosest). */
export function bounds(here: Here): void {
  const { o, n, po, pn, add } = here;
  for (const keyword of [...LOWER_BOUNDS, ...UPPER_BOUNDS]) {
    const before = numberAt(o, keyword);
    const after = numberAt(n, keyword);
    if (before === after) continue;
    const lower = LOWER_BOUNDS.includes(keyword);
    const sides = compareBounds(before, after, lower);
    if (!sides) continue;
    const { tighter, tight, loose } = sides;
    const accept = tighter === 'new' ? 'old' : 'new';
    add(
      tighter === 'new' ? 'bound-tightened' : 'bound-loosened',
      `\`${keyword}\` ${before ?? 'none'} → ${after ?? 'none'}`,
      tighter === 'new' ? 'senders' : 'receivers',
      [boundary(accept, accept === 'old' ? o : n, keyword, lower, loose, tight)],
      { o: keyword in o ? `${po}/${keyword}` : po, n: keyword in n ? `${pn}/${keyword}` : pn },
      [keyword],
    );
  }
}

/** The keyword's value when it is a number (a bound), else undefined. */
function numberAt(node: Record<string, unknown>, keyword: string): number | undefined {
  const value = node[keyword];
  return typeof value === 'number' ? value : undefined;
}

/**
 * Which side's bound is the tighter (an absent bound is the loosest), that bound, and the other side's (undefined
 * when absent); undefined when neither side has one.
 */
function compareBounds(
  before: number | undefined,
  after: number | undefined,
  lower: boolean,
): { tighter: 'old' | 'new'; tight: number; loose: number | undefined } | undefined {
  if (after !== undefined && (before === undefined || lower === after > before))
    return { tighter: 'new', tight: after, loose: before };
  if (before !== undefined) return { tighter: 'old', tight: before, loose: after };
  return undefined;
}

/** A value on the loose side of a bound and outside the tight one. */
function boundary(
  accept: 'old' | 'new',
  schema: Record<string, unknown>,
  keyword: string,
  lower: boolean,
  loose: number | undefined,
  tight: number,
): Mutation {
  const exclusive = keyword.startsWith('exclusive');
  const size = lower ? (loose ?? Math.max(0, tight - 1)) : (loose ?? tight + 1);
  const number =
    exclusive && loose !== undefined
      ? (loose + tight) / 2
      : lower
        ? (loose ?? tight - 1)
        : (loose ?? tight + 1);
  return {
    accept,
    apply: (node, tools) => {
      if (keyword.endsWith('Length')) return 'x'.repeat(size);
      if (keyword.endsWith('Items')) {
        const item =
          Array.isArray(node) && node.length > 0
            ? node[0]
            : sample(schema.items ?? {}, tools.resolve[accept]);
        return Array.from({ length: size }, () => item);
      }
      if (keyword.endsWith('Properties')) {
        const base = isRecord(node) ? { ...node } : {};
        for (let i = Object.keys(base).length; i < size; i += 1) base[`${WITNESS_KEY}${i}`] = null;
        const keys = Object.keys(base);
        return lower ? Object.fromEntries(keys.slice(0, size).map((k) => [k, base[k]])) : base;
      }
      return number;
    },
  };
}
