// Shrinks a failing probe: drops optional query parameters, object keys, array items and string tails one at a time,
// keeping each smaller probe that still keeps its rules (a valid one) or still breaks exactly its one rule (a mutated
// one: its valid origin is made smaller and the mutation applied again), and that still fails the same way.
import { escapePointerToken, type Validator } from '@agentproto/runtime/contract';
import { isObject } from '../kit/is-object.js';
import type { Probe } from './probe.js';

/** Every probe one step smaller than `probe`, largest steps first. */
export function smaller(probe: Probe, requiredQuery: ReadonlySet<string>): Probe[] {
  const out: Probe[] = [];
  for (const key of Object.keys(probe.query))
    if (!requiredQuery.has(key) && probe.mutation?.at !== `?${key}`)
      out.push({
        ...probe,
        query: Object.fromEntries(Object.entries(probe.query).filter(([k]) => k !== key)),
      });
  const body = probe.body;
  if (body?.kind !== 'json') return out;
  const origin = probe.origin;
  if (origin)
    for (const value of reductions(origin.value, '', probe.mutation?.at ?? ''))
      out.push({ ...probe, body: { ...body, value: origin.apply(value) }, origin: { ...origin, value } });
  else if (probe.valid)
    for (const value of reductions(body.value, '', '')) out.push({ ...probe, body: { ...body, value } });
  return out;
}

/** Values one step smaller than `value`; nothing on the way to `keep` (the mutated place) is removed. */
function reductions(value: unknown, at: string, keep: string): unknown[] {
  const out: unknown[] = [];
  const onPath = (p: string) => keep === p || keep.startsWith(`${p}/`);
  if (Array.isArray(value)) {
    if (value.length > 0 && !onPath(`${at}/${value.length - 1}`)) out.push(value.slice(0, -1));
    value.forEach((item, i) => {
      for (const r of reductions(item, `${at}/${i}`, keep)) out.push(value.map((x, j) => (j === i ? r : x)));
    });
  } else if (isObject(value)) {
    const record = value;
    for (const key of Object.keys(record)) {
      const p = `${at}/${escapePointerToken(key)}`;
      if (!onPath(p)) out.push(Object.fromEntries(Object.entries(record).filter(([k]) => k !== key)));
      for (const r of reductions(record[key], p, keep)) out.push({ ...record, [key]: r });
    }
  } else if (typeof value === 'string' && value.length > 8 && at !== keep) out.push(value.slice(0, 8));
  return out;
}

/**
 * Whether a smaller probe keeps its side of the line: a valid one still valid; a mutated one still invalid, made from
 * a body that is valid (so it breaks the one rule it names, and no other).
 */
export function keepsItsSide(probe: Probe, validate: Validator | undefined): boolean {
  if (probe.body?.kind !== 'json' || !validate) return true;
  if (probe.origin && !validate(probe.origin.value)) return false;
  return validate(probe.body.value) === probe.valid;
}
