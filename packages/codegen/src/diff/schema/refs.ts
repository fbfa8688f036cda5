// `$ref`: a node that names a different type, or starts or stops naming one. The type a reference names is compared
// on its own, once, so this handler only says that the reference itself moved.
import type { Here } from './handler.js';
import { setFrom, setRef } from './mutations.js';
import { refTypeName } from './ref-name.js';

/** Compares the types two nodes refer to. */
export function refs(here: Here): void {
  const { o, n, add } = here;
  if (o.$ref === undefined && n.$ref === undefined) return;
  const from = refTypeName(o.$ref);
  const to = refTypeName(n.$ref);
  if (from === to && from !== undefined) return; // the type itself is compared on its own
  if (o.$ref !== undefined && n.$ref !== undefined)
    add('ref-changed', `is now a ${to ?? String(n.$ref)} instead of a ${from ?? String(o.$ref)}`, 'both', [
      setRef('new', n.$ref),
      setRef('old', o.$ref),
    ]);
  else if (n.$ref !== undefined)
    add('ref-added', `now must also be a ${to ?? String(n.$ref)}`, 'senders', [setFrom('old', o)]);
  else add('ref-removed', `need no longer be a ${from ?? String(o.$ref)}`, 'receivers', [setFrom('new', n)]);
}
