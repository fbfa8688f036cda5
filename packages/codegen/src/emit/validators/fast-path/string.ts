// String keywords: `minLength` and `maxLength` (in code points, as ajv counts) and `pattern`, on strings only.
import { type Code, ts } from '../../code.js';
import type { Compiler } from './compiler.js';
import { block, integer, type Site, Unsupported } from './support.js';

/** The string checks, in one block guarded by the string test. */
export function emitString(cx: Compiler, { schema, data: d, known }: Site): Code[] {
  const inner: Code[] = [];
  if (schema.minLength !== undefined) {
    const n = integer(schema.minLength, 'minLength');
    // The length in code points is at most `.length` and at least half of it, rounded up: count only in between
    // (string-length.ts). With a minimum of one, that is nothing: a non-empty string holds it.
    if (n === 1) inner.push(ts`if(${d}.length < 1) return false;`);
    else if (n > 1) {
      cx.helper('ucs2length');
      inner.push(
        ts`if(${d}.length < ${n} || (${d}.length < ${2 * n - 1} && fastUcs2length(${d}) < ${n})) return false;`,
      );
    }
  }
  if (schema.maxLength !== undefined) {
    const n = integer(schema.maxLength, 'maxLength');
    cx.helper('ucs2length');
    inner.push(ts`if(${d}.length > ${n} && fastUcs2length(${d}) > ${n}) return false;`);
  }
  if (schema.pattern !== undefined) {
    if (typeof schema.pattern !== 'string') throw new Unsupported('pattern that is not a string');
    inner.push(ts`if(!${cx.regexp(schema.pattern)}.test(${d})) return false;`);
  }
  return inner.length > 0 ? [block(known, 'string', ts`typeof ${d} == "string"`, inner)] : [];
}
