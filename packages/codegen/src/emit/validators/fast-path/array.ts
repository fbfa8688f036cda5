// Array keywords: `minItems`/`maxItems`, `prefixItems` and `items` (the items after the prefix), on arrays only.
import { type Code, ts } from '../../code.js';
import type { Compiler } from './compiler.js';
import { block, integer, lines, type Site, subschema, Unsupported } from './support.js';

/** The array checks, in one block guarded by the array test. */
export function emitArray(cx: Compiler, { schema: s, base, data: d, known }: Site): Code[] {
  const inner: Code[] = [];
  if (s.minItems !== undefined)
    inner.push(ts`if(${d}.length < ${integer(s.minItems, 'minItems')}) return false;`);
  if (s.maxItems !== undefined)
    inner.push(ts`if(${d}.length > ${integer(s.maxItems, 'maxItems')}) return false;`);
  let first = 0;
  if (s.prefixItems !== undefined) {
    if (!Array.isArray(s.prefixItems)) throw new Unsupported('prefixItems that is not a list');
    s.prefixItems.forEach((sub, i) => {
      const checks = cx.checks(subschema(sub, 'prefixItems'), base, ts`${d}[${i}]`);
      if (checks.length > 0) inner.push(ts`if(${d}.length > ${i}){\n${lines(checks)}\n}`);
    });
    first = s.prefixItems.length;
  }
  if (s.items !== undefined && s.items !== true) {
    if (Array.isArray(s.items)) throw new Unsupported('items as a list');
    const i = cx.variable();
    const checks = cx.checks(subschema(s.items, 'items'), base, ts`${d}[${i}]`);
    if (checks.length > 0)
      inner.push(ts`for(let ${i} = ${first}; ${i} < ${d}.length; ${i}++){\n${lines(checks)}\n}`);
  }
  return inner.length > 0 ? [block(known, 'array', ts`Array.isArray(${d})`, inner)] : [];
}
