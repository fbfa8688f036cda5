// Applicators over whole subschemas: `allOf`, `anyOf`, `oneOf` (or `discriminator`, which replaces it), `not` and
// `if`/`then`/`else`.
import { type Code, joinCode, ts } from '../../code.js';
import type { Compiler } from './compiler.js';
import { emitDiscriminator } from './discriminator.js';
import { type Schema, type Site, subschema, Unsupported } from './support.js';
import { typeOnly } from './type.js';

/** The checks of every applicator in `site.schema`, in the order ajv runs them. */
export function emitCombinators(cx: Compiler, site: Site): Code[] {
  const { schema: s, base, data: d, known } = site;
  const out: Code[] = [];
  const list = (keyword: string): Schema[] => {
    const v = s[keyword];
    if (v === undefined) return [];
    if (!Array.isArray(v) || v.length === 0) throw new Unsupported(`${keyword} that is not a non-empty list`);
    return v.map((branch) => subschema(branch, keyword));
  };
  for (const branch of list('allOf')) out.push(...cx.checks(branch, base, d, known));
  const anyOf = list('anyOf');
  if (anyOf.length > 0) {
    // The verdict does not depend on the order: branches that are a lone type test go first, as they are cheapest.
    const tests = [...anyOf]
      .sort((a, b) => Number(!typeOnly(a)) - Number(!typeOnly(b)))
      .map((b) => cx.passes(b, base, d));
    out.push(ts`if(!(${joinCode(tests, ' || ')})) return false;`);
  }
  const oneOf = list('oneOf');
  if (s.discriminator !== undefined) out.push(emitDiscriminator(cx, site, oneOf));
  else if (oneOf.length > 0) {
    const counts = oneOf.map((b) => ts`(${cx.passes(b, base, d)} ? 1 : 0)`);
    out.push(ts`if((${joinCode(counts, ' + ')}) !== 1) return false;`);
  }
  if (s.not !== undefined) out.push(ts`if(${cx.passes(subschema(s.not, 'not'), base, d)}) return false;`);
  // As in ajv, `if` without `then` or `else` decides nothing.
  if (s.if !== undefined && (s.then !== undefined || s.else !== undefined)) {
    const test = cx.passes(subschema(s.if, 'if'), base, d);
    const then = s.then === undefined ? ts`true` : cx.passes(subschema(s.then, 'then'), base, d);
    const otherwise = s.else === undefined ? ts`true` : cx.passes(subschema(s.else, 'else'), base, d);
    out.push(ts`if(!(${test} ? ${then} : ${otherwise})) return false;`);
  }
  return out;
}
