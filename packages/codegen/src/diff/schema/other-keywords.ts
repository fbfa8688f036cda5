// Every keyword no handler reads: an annotation changed breaks no one; any other constraint added, removed or changed
// is reported as such, with no witness of its own beyond the probes. Its own file because it is the walk's catch-all,
// and the list of what the handlers read must be kept beside it.
import { escapePointerToken } from '../../diagnostics.js';
import { LOWER_BOUNDS, UPPER_BOUNDS } from './bounds.js';
import type { Here } from './handler.js';
import { equal } from './json-values.js';

/** Keywords that describe and never constrain: a change to them breaks no one. */
export const ANNOTATIONS: ReadonlySet<string> = new Set([
  '$schema',
  '$id',
  '$comment',
  '$anchor',
  'title',
  'description',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'discriminator',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
]);

// Keywords the handlers read themselves (besides the bounds); any other constraint that differs is reported as
// `keyword-changed`.
const HANDLED = new Set([
  '$ref',
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'prefixItems',
  'anyOf',
  'oneOf',
  'allOf',
  'pattern',
  'format',
]);

/** Compares every keyword of two nodes that no handler reads: `annotation-changed` or `keyword-changed`. */
export function otherKeywords(here: Here): void {
  compare(here, (key) => !HANDLED.has(key) && !LOWER_BOUNDS.includes(key) && !UPPER_BOUNDS.includes(key));
}

/** Compares only the annotations of two nodes (of two schemas that take the same values). */
export function annotations(here: Here): void {
  compare(here, (key) => ANNOTATIONS.has(key) || key.startsWith('x-'));
}

function compare(here: Here, read: (key: string) => boolean): void {
  const { o, n, po, pn, add } = here;
  for (const key of new Set([...Object.keys(o), ...Object.keys(n)])) {
    if (!read(key)) continue;
    // Each version names its files by its own `$id`: a different one is where the type lives, not a change.
    if (key === '$id' || key === '$schema') continue;
    if (equal(o[key], n[key])) continue;
    const pair = {
      ...(key in o ? { o: `${po}/${escapePointerToken(key)}` } : {}),
      ...(key in n ? { n: `${pn}/${escapePointerToken(key)}` } : {}),
    };
    const verb = !(key in o) ? 'added' : !(key in n) ? 'removed' : 'changed';
    if (ANNOTATIONS.has(key) || key.startsWith('x-'))
      add('annotation-changed', `\`${key}\` ${verb}`, 'none', [], pair);
    else
      add(
        'keyword-changed',
        `\`${key}\` ${verb}`,
        verb === 'added' ? 'senders' : verb === 'removed' ? 'receivers' : 'both',
        [],
        pair,
        [key],
      );
  }
}
