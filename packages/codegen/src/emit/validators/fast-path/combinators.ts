// Applicators over whole subschemas: `allOf`, `anyOf`, `oneOf` (or `discriminator`, which replaces it), `not` and
// `if`/`then`/`else`.
import { type Code, joinCode, literal, str, ts } from '../../code.js';
import { pickerOf } from '../pick-branch.js';
import type { Compiler } from './compiler.js';
import { emitDiscriminator } from './discriminator.js';
import { lines, type Schema, type Site, subschema, Unsupported } from './support.js';
import { typeCheck, typeOnly } from './type.js';

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
    const whole = ts`if((${joinCode(counts, ' + ')}) !== 1) return false;`;
    out.push(emitPicked(cx, site, oneOf, whole) ?? whole);
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

/**
 * A `oneOf` whose branches the value names (by a member only one branch requires, or by a tag: pick-branch.ts) as a
 * check of that branch alone, as the error path does: when the value is an object naming exactly one branch, every
 * other branch fails its `required` or its tag, so the union holds exactly when the named branch does. Otherwise
 * `whole`, which counts every branch, decides. Undefined when the union names no branch.
 */
function emitPicked(cx: Compiler, { base, data: d }: Site, oneOf: Schema[], whole: Code): Code | undefined {
  const picker = pickerOf(oneOf, base, (ref, from) => {
    try {
      return cx.resolve(ref, from).schema;
    } catch (error) {
      if (error instanceof Unsupported) return undefined;
      throw error;
    }
  });
  if (!picker) return undefined;
  const pick = cx.variable();
  const naming: Code[] = [];
  if (picker.kind === 'member') {
    // One member: its branch; a second: none (-2), and every branch is counted.
    picker.members.forEach((member, i) => {
      const value = i === 0 ? ts`0` : ts`${pick} === -1 ? ${i} : -2`;
      naming.push(ts`if(${d}[${str(member)}] !== undefined) ${pick} = ${value};`);
    });
  } else {
    const tag = ts`${d}[${str(picker.property)}]`;
    picker.values.forEach((values, i) => {
      const test = joinCode(
        values.map((v) => ts`${tag} === ${literal(v)}`),
        ' || ',
      );
      naming.push(ts`${i === 0 ? ts`if` : ts`else if`}(${test}) ${pick} = ${i};`);
    });
  }
  const branches = oneOf.map(
    (b, i) => ts`if(${pick} === ${i}){ if(!${cx.passes(b, base, d)}) return false; }\nelse `,
  );
  return ts`{let ${pick} = -1;
if(${typeCheck('object', d)}){
${lines(naming)}
}
${branches}${whole}}`;
}
