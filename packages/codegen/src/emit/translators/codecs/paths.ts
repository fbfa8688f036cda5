// A rule's path in emitted code, read or written: a property at the root in place (`__proto__` defined, so that it
// is a property and never the prototype), a deeper path through the `getPath`/`setPath` helpers, with the path a
// shared constant.
import { type Code, str, ts } from '../../code.js';
import type { Emitter } from './emitter.js';

/** The value at `path` of object `of` (a variable known to be an object), own properties only. */
export function readPath(cx: Emitter, of: Code, path: readonly string[]): Code {
  const [first, ...rest] = path;
  if (first === undefined) return of;
  if (rest.length === 0) return ts`(Object.hasOwn(${of}, ${str(first)}) ? ${of}[${str(first)}] : undefined)`;
  return ts`getPath(${of}, ${cx.path(path)})`;
}

/** The statement that writes `value` at `path` of `out`. */
export function writePath(cx: Emitter, out: Code, path: readonly string[], value: Code): Code {
  const [first, ...rest] = path;
  if (first === undefined) throw new Error('a translation rule with an empty path');
  if (rest.length > 0) return ts`setPath(${out}, ${cx.path(path)}, ${value});`;
  return first === '__proto__'
    ? ts`define(${out}, ${str(first)}, ${value});`
    : ts`${out}[${str(first)}] = ${value};`;
}
