// Objects: `required`, `properties`, and whether the object takes properties it does not name
// (`additionalProperties`, `unevaluatedProperties`). A property both sides name is walked into, one step deeper.
import { escapePointerToken } from '../../diagnostics.js';
import { isRecord } from '../../util/json.js';
import { WITNESS_KEY } from './found-change.js';
import type { Here } from './handler.js';
import { equal } from './json-values.js';
import { drop, withKey } from './mutations.js';

/** Compares the `required` lists of two nodes: each name now required, and each no longer. */
export function required(here: Here): void {
  const { o, n, po, pn, add } = here;
  const of = (x: unknown) => (Array.isArray(x) ? x.map(String) : []);
  const before = of(o.required);
  const after = of(n.required);
  for (const name of after.filter((x) => !before.includes(x)))
    add('required-added', `\`${name}\` is now required`, 'senders', [drop('old', name)], {
      ...(o.required ? { o: `${po}/required` } : { o: po }),
      n: `${pn}/required/${after.indexOf(name)}`,
    });
  for (const name of before.filter((x) => !after.includes(x)))
    add('required-removed', `\`${name}\` is no longer required`, 'receivers', [drop('new', name)], {
      o: `${po}/required/${before.indexOf(name)}`,
      ...(n.required ? { n: `${pn}/required` } : { n: pn }),
    });
}

/** Compares the `properties` of two nodes: each added or removed, and each both name, walked into. */
export function properties(here: Here): void {
  const { o, n, po, pn, add } = here;
  const before = isRecord(o.properties) ? o.properties : {};
  const after = isRecord(n.properties) ? n.properties : {};
  const closed = (x: Record<string, unknown>) =>
    x.additionalProperties === false || x.unevaluatedProperties === false;
  const ptr = (base: string, name: string) => `${base}/properties/${escapePointerToken(name)}`;
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (name in before && name in after) {
      here.deeper(before[name], after[name], ptr(po, name), ptr(pn, name), name);
    } else if (name in after) {
      // A property the old schema did not name: old receivers reject it only when the old object was closed.
      add(
        'property-added',
        `has a new property \`${name}\`${closed(o) ? ' (the old object was closed)' : ''}`,
        closed(o) ? 'receivers' : 'none',
        [withKey('new', name, after[name])],
        { o: isRecord(o.properties) ? `${po}/properties` : po, n: ptr(pn, name) },
      );
    } else {
      add(
        'property-removed',
        `no longer names \`${name}\`${closed(n) ? ' (the new object is closed)' : ''}`,
        closed(n) ? 'senders' : 'none',
        [withKey('old', name, before[name])],
        { o: ptr(po, name), n: isRecord(n.properties) ? `${pn}/properties` : pn },
      );
    }
  }
}

/** Compares what two nodes say of properties they do not name: opened, closed, or a schema for them, walked into. */
export function closure(here: Here): void {
  const { o, n, po, pn, add } = here;
  for (const keyword of ['additionalProperties', 'unevaluatedProperties'] as const) {
    const before = o[keyword];
    const after = n[keyword];
    if (equal(before, after)) continue;
    const pointers = {
      ...(keyword in o ? { o: `${po}/${keyword}` } : { o: po }),
      ...(keyword in n ? { n: `${pn}/${keyword}` } : { n: pn }),
    };
    const open = (x: unknown) => x === undefined || x === true;
    if (before === false && after !== false)
      add(
        'object-opened',
        `now takes properties it does not name (\`${keyword}\`)`,
        'receivers',
        [withKey('new', WITNESS_KEY, after ?? {})],
        pointers,
      );
    else if (after === false && before !== false)
      add(
        'object-closed',
        `no longer takes properties it does not name (\`${keyword}\`)`,
        'senders',
        [withKey('old', WITNESS_KEY, before ?? {})],
        pointers,
      );
    else if (!open(before) || !open(after))
      here.deeper(before ?? true, after ?? true, pointers.o, pointers.n, WITNESS_KEY);
  }
}
