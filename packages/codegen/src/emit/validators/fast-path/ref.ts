// `$ref`: the schema a reference names (a resource by `$id`, then a JSON pointer into it), checked by a call to the
// function compiled for it, so a recursive schema is a recursive call.
import { type Code, ts } from '../../code.js';
import type { Compiler } from './compiler.js';
import { isObject, type Schema, type Site, Unsupported } from './support.js';

/** The schema `ref` names from `base` among `schemas`, and the base URI its own references resolve against. */
export function resolve(
  schemas: ReadonlyMap<string, Record<string, unknown>>,
  ref: string,
  base: string,
): { schema: Schema; base: string } {
  const url = new URL(ref, base);
  const fragment = decodeURIComponent(url.hash.slice(1));
  url.hash = '';
  const resource = schemas.get(url.href);
  if (resource === undefined) throw new Unsupported(`unresolved $ref ${ref}`);
  if (fragment === '') return { schema: resource, base: url.href };
  if (!fragment.startsWith('/')) throw new Unsupported(`$ref to an anchor ${ref}`);
  let target: unknown = resource;
  for (const token of fragment.slice(1).split('/')) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    // Objects and arrays alike: the token is a property name (`0` reads an array's first entry).
    target = typeof target === 'object' && target !== null ? Reflect.get(target, key) : undefined;
  }
  if (!isObject(target) && typeof target !== 'boolean') throw new Unsupported(`unresolved $ref ${ref}`);
  return { schema: target, base: url.href };
}

/** The check of `$ref`: the target's function must accept the value. */
export function emitRef(cx: Compiler, { schema, base, data }: Site): Code[] {
  if (typeof schema.$ref !== 'string') return [];
  const target = cx.resolve(schema.$ref, base);
  return [ts`if(!${cx.functionFor(target.schema, target.base)}(${data})) return false;`];
}
