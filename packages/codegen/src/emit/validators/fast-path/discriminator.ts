// ajv's `discriminator` (which replaces `oneOf` when present): on an object, the tag must be a string naming a branch
// by the `const` or `enum` of the branch's tag property, and that branch alone decides.
import { type Code, str, ts } from '../../code.js';
import type { Compiler } from './compiler.js';
import { guard, isObject, lines, type Schema, type Site, Unsupported } from './support.js';
import { typeCheck } from './type.js';

/** A check calling a function that picks the branch by the tag and answers with that branch's verdict. */
export function emitDiscriminator(
  cx: Compiler,
  { schema, base, data: d, known }: Site,
  oneOf: Schema[],
): Code {
  const discriminator = schema.discriminator;
  if (!isObject(discriminator) || typeof discriminator.propertyName !== 'string' || oneOf.length === 0)
    throw new Unsupported('discriminator without propertyName and oneOf');
  const tagName = discriminator.propertyName;
  const cases: Code[] = [];
  const tags = new Set<string>();
  for (const branch of oneOf) {
    let target = branch;
    if (isObject(branch) && typeof branch.$ref === 'string') target = cx.resolve(branch.$ref, base).schema;
    const property = isObject(target) && isObject(target.properties) ? target.properties[tagName] : undefined;
    if (!isObject(property)) throw new Unsupported('discriminator branch without its tag property');
    const values =
      property.const !== undefined ? [property.const] : Array.isArray(property.enum) ? property.enum : [];
    if (values.length === 0) throw new Unsupported('discriminator tag without const or enum');
    const test = cx.passes(branch, base, ts`data`);
    for (const value of values) {
      if (typeof value !== 'string' || tags.has(value))
        throw new Unsupported('discriminator tags that are not unique strings');
      tags.add(value);
      cases.push(ts`if(t === ${str(value)}) return ${test};`);
    }
  }
  const check = cx.name('fast');
  cx.define(
    check,
    ts`function ${check}(data){\nconst t = data[${str(tagName)}];\nif(typeof t !== "string") return false;\n${lines(cases)}\nreturn false;\n}`,
  );
  return ts`if(${guard(known, 'object', typeCheck('object', d))}!${check}(${d})) return false;`;
}
