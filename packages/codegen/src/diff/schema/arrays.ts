// Arrays: `items` and `prefixItems`. An item schema both sides have is walked into, one step deeper (item 0, or the
// prefix item's own index); one only a side has is reported as a constraint gained or lost.
import type { Here } from './handler.js';
import { equal } from './json-values.js';

/** Compares the item schemas of two nodes. */
export function arrays(here: Here): void {
  const { o, n, po, pn, add } = here;
  if (!equal(o.items, n.items)) {
    if (o.items !== undefined && n.items !== undefined)
      here.deeper(o.items, n.items, `${po}/items`, `${pn}/items`, '0');
    else
      add(
        n.items === undefined ? 'items-removed' : 'items-added',
        n.items === undefined ? 'items are no longer constrained' : 'items are now constrained',
        n.items === undefined ? 'receivers' : 'senders',
        [],
      );
  }
  const before = Array.isArray(o.prefixItems) ? o.prefixItems : [];
  const after = Array.isArray(n.prefixItems) ? n.prefixItems : [];
  for (let i = 0; i < Math.max(before.length, after.length); i += 1) {
    if (i < before.length && i < after.length)
      here.deeper(before[i], after[i], `${po}/prefixItems/${i}`, `${pn}/prefixItems/${i}`, String(i));
    else
      add(
        i < after.length ? 'prefix-item-added' : 'prefix-item-removed',
        `item ${i} is ${i < after.length ? 'now' : 'no longer'} constrained`,
        i < after.length ? 'senders' : 'receivers',
        [],
      );
  }
}
