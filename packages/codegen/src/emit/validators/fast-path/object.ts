// Object keywords: `required`, `dependentRequired`, `minProperties`/`maxProperties`, `properties`,
// `patternProperties`, `additionalProperties` and `unevaluatedProperties`, on objects only.
import { type Code, joinCode, str, ts } from '../../code.js';
import type { Compiler } from './compiler.js';
import { type Evaluated, evaluated } from './evaluated.js';
import {
  block,
  integer,
  isObject,
  lines,
  type Schema,
  type Site,
  subschema,
  Unsupported,
} from './support.js';
import { typeCheck } from './type.js';

/** The object checks, in one block guarded by the object test. */
export function emitObject(cx: Compiler, { schema: s, base, data: d, known }: Site): Code[] {
  const inner: Code[] = [];
  const at = (name: string) => ts`${d}[${str(name)}]`;
  const listed = s.required === undefined ? [] : s.required;
  if (!Array.isArray(listed)) throw new Unsupported('required that is not a list');
  const required = new Set(listed.map(String));
  const properties = s.properties;
  if (properties !== undefined && !isObject(properties))
    throw new Unsupported('properties that is not an object');
  // A required property with a schema is read once: missing, or checked.
  const checked = new Set(
    Object.entries(properties ?? {})
      .filter(([name, sub]) => required.has(name) && sub !== true)
      .map(([name]) => name),
  );
  for (const name of required)
    if (!checked.has(name)) inner.push(ts`if(${at(name)} === undefined) return false;`);
  if (s.dependentRequired !== undefined) {
    if (!isObject(s.dependentRequired)) throw new Unsupported('dependentRequired that is not an object');
    for (const [name, needs] of Object.entries(s.dependentRequired)) {
      if (!Array.isArray(needs)) throw new Unsupported('dependentRequired entry that is not a list');
      if (needs.length === 0) continue;
      const missing = joinCode(
        needs.map((n) => ts`${at(String(n))} === undefined`),
        ' || ',
      );
      inner.push(ts`if(${at(name)} !== undefined && (${missing})) return false;`);
    }
  }
  if (s.minProperties !== undefined)
    inner.push(ts`if(Object.keys(${d}).length < ${integer(s.minProperties, 'minProperties')}) return false;`);
  if (s.maxProperties !== undefined)
    inner.push(ts`if(Object.keys(${d}).length > ${integer(s.maxProperties, 'maxProperties')}) return false;`);
  if (properties !== undefined) {
    for (const [name, sub] of Object.entries(properties)) {
      if (sub === true) continue;
      const v = cx.variable();
      const checks = cx.checks(subschema(sub, 'properties'), base, v);
      const read = ts`const ${v} = ${at(name)};`;
      if (checked.has(name))
        inner.push(ts`{${read}\nif(${v} === undefined) return false;\n${lines(checks)}\n}`);
      else if (checks.length > 0) inner.push(ts`{${read}\nif(${v} !== undefined){\n${lines(checks)}\n}}`);
    }
  }
  const patterns = s.patternProperties;
  if (patterns !== undefined) {
    if (!isObject(patterns)) throw new Unsupported('patternProperties that is not an object');
    const entries = Object.entries(patterns).filter(([, sub]) => sub !== true);
    if (entries.length > 0) {
      const k = cx.variable();
      const tests = entries.map(([pattern, sub]) => {
        const checks = cx.checks(subschema(sub, 'patternProperties'), base, ts`${d}[${k}]`);
        return ts`if(${cx.regexp(pattern)}.test(${k})){\n${lines(checks)}\n}`;
      });
      inner.push(ts`for(const ${k} in ${d}){\n${lines(tests)}\n}`);
    }
  }
  if (s.additionalProperties !== undefined && s.additionalProperties !== true) {
    const declared = {
      names: Object.keys(isObject(properties) ? properties : {}),
      patterns: Object.keys(isObject(patterns) ? patterns : {}),
      all: false,
    };
    inner.push(leftOver(cx, declared, subschema(s.additionalProperties, 'additionalProperties'), base, d));
  }
  if (s.unevaluatedProperties !== undefined && s.unevaluatedProperties !== true) {
    const known = evaluated(cx, s, base, new Set(), true);
    if (!known.all)
      inner.push(leftOver(cx, known, subschema(s.unevaluatedProperties, 'unevaluatedProperties'), base, d));
  }
  return inner.length > 0 ? [block(known, 'object', typeCheck('object', d), inner)] : [];
}

/** A loop over the keys of `d` outside `known`, each checked against `rest` (false: none may be there). */
function leftOver(cx: Compiler, known: Evaluated, rest: Schema, base: string, d: Code): Code {
  const k = cx.variable();
  const conditions = [
    ...known.names.map((n) => ts`${k} === ${str(n)}`),
    ...known.patterns.map((p) => ts`${cx.regexp(p)}.test(${k})`),
  ];
  const checks = cx.checks(rest, base, ts`${d}[${k}]`);
  if (checks.length === 0) return ts``;
  const test =
    conditions.length > 0 ? ts`if(!(${joinCode(conditions, ' || ')})){\n${lines(checks)}\n}` : lines(checks);
  return ts`for(const ${k} in ${d}){\n${test}\n}`;
}
