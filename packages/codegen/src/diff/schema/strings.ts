// Strings: `pattern` and `format`. A format's witness is a plain word one side checks and the other does not, or the
// format's own sample; a pattern's comes from the probes every change gets.
import { sample } from '../sample.js';
import type { Mutation } from './found-change.js';
import type { Here } from './handler.js';
import { equal, short } from './json-values.js';
import { set } from './mutations.js';

/** Compares the `pattern` and `format` of two nodes: each added, removed or changed. */
export function strings(here: Here): void {
  const { o, n, po, pn, add } = here;
  for (const keyword of ['pattern', 'format'] as const) {
    if (equal(o[keyword], n[keyword])) continue;
    const verb = o[keyword] === undefined ? 'added' : n[keyword] === undefined ? 'removed' : 'changed';
    const mutations: Mutation[] = [];
    // A value in the format one side checks and the other does not: the format's sample, or a plain word.
    if (keyword === 'format') {
      if (n.format !== undefined) mutations.push(set('old', 'x'));
      if (o.format !== undefined) mutations.push(set('new', 'x'));
      if (n.format !== undefined)
        mutations.push({
          accept: 'new',
          apply: (_x, t) => sample({ type: 'string', format: n.format }, t.resolve.new),
        });
      if (o.format !== undefined)
        mutations.push({
          accept: 'old',
          apply: (_x, t) => sample({ type: 'string', format: o.format }, t.resolve.old),
        });
    }
    add(
      `${keyword}-${verb}`,
      `\`${keyword}\` ${short(o[keyword])} → ${short(n[keyword])}`,
      verb === 'added' ? 'senders' : verb === 'removed' ? 'receivers' : 'both',
      mutations,
      { o: keyword in o ? `${po}/${keyword}` : po, n: keyword in n ? `${pn}/${keyword}` : pn },
    );
  }
}
