// The helpers every emitted codec module holds once, as text: the object test, the own-property reads and writes
// (`__proto__` defined as data), the path walks, the copy of what no rule claims, and the map over an object's values.
import { ts } from '../../code.js';

/** The helpers the emitted functions call: the same steps as the runtime's, each a plain function. */
export const HELPERS = ts`/** A JSON object. */
type Obj = Record<string, unknown>;

/** A tree of the paths some rule reads or writes, which the copy of everything else leaves out. */
interface Claimed {
  readonly [key: string]: Claimed | true;
}

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const hop = Object.prototype.hasOwnProperty;

/** Sets an own property named \`__proto__\`: from JSON it is data, never the object's prototype. */
function define(o: Obj, k: string, value: unknown): void {
  Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });
}

/** Sets an own property, whatever its name. */
function put(o: Obj, k: string, value: unknown): void {
  if (k === '__proto__') define(o, k, value);
  else o[k] = value;
}

/** The own property \`k\` of \`v\` when \`v\` is an object. */
function at(v: unknown, k: string): unknown {
  return isObject(v) && Object.hasOwn(v, k) ? v[k] : undefined;
}

/** The value at a path of own properties, or undefined. */
function getPath(v: unknown, path: readonly string[]): unknown {
  let here = v;
  for (const k of path) here = at(here, k);
  return here;
}

/** Writes a value at a path, copying each object on the way (it may be the input's, and input is never written). */
function setPath(out: Obj, path: readonly string[], value: unknown): void {
  let here = out;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i] ?? '';
    const next = here[k];
    const made: Obj = isObject(next) && Object.hasOwn(here, k) ? { ...next } : {};
    put(here, k, made);
    here = made;
  }
  put(here, path[path.length - 1] ?? '', value);
}

/** Copies every field of \`v\` no rule claims into \`out\`, at the same path (below the root). */
function copyRest(v: Obj, claimed: Claimed, out: Obj, path: readonly string[]): void {
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    const c = Object.hasOwn(claimed, k) ? claimed[k] : undefined;
    if (c === true) continue;
    const value = v[k];
    if (c === undefined || !isObject(value)) setPath(out, [...path, k], value);
    else if (Object.keys(value).length === 0) setPath(out, [...path, k], {});
    else copyRest(value, c, out, [...path, k]);
  }
}

/** An object's values, each through \`f\`. */
function mapValues(v: Obj, f: (x: unknown) => unknown): Obj {
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) put(out, k, f(x));
  return out;
}
`;
